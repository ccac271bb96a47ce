// The My puzzles page: what this browser has solved, per difficulty and one by one, and its export.
import {clock, exportText, solvedList, summary} from "./mine.js";
import {T, word} from "./strings.js";

function row(cells, body) {
  const tr = body.insertRow();
  for (const cell of cells) {
    const td = tr.insertCell();
    if (cell instanceof Node) td.append(cell);
    else td.textContent = cell;
  }
  return tr;
}

const list = solvedList();
const sums = document.querySelector("#mine-summary tbody");
for (const s of summary(list)) {
  row([s.difficulty === "unknown" ? T.pasted : word(s.difficulty), s.solved, clock(s.best), clock(s.mean), s.hints], sums)
    .dataset.difficulty = s.difficulty;
}
document.getElementById("mine-empty").hidden = list.length > 0;
const items = document.querySelector("#mine-list tbody");
for (const s of [...list].reverse()) {
  const link = document.createElement("a");
  link.href = `/play?p=${encodeURIComponent(s.id)}`;
  link.textContent = T.openPuzzle;
  link.setAttribute("aria-label", `${T.openPuzzle} ${s.id}`);
  row([s.date, s.size, s.difficulty === "unknown" ? T.pasted : word(s.difficulty), clock(s.seconds), s.hints, link], items);
}
document.getElementById("mine-export").addEventListener("click", () => {
  const blob = new Blob([exportText()], {type: "application/json"});
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "hashi-my-puzzles.json";
  document.body.appendChild(a);
  a.click();
  a.remove();
});
