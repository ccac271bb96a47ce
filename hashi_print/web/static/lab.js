// The solver lab: run the SAT solver with chosen options and step through its connectivity cuts.
import {post, setStatus} from "./api.js";
import {Board, el} from "./board.js";
import {T, ms, word} from "./strings.js";

// An expert 10x10 of our generator (seed 205802208495627) that still takes four rounds of cuts after root
// propagation: most puzzles of this size are settled before the search and would show the lab no round.
const SAMPLE = "10x10m2:2c3d2j3a2b3a5a3d2e2d3a5f1e3a3d4a3j2c2b2k1";
const form = document.getElementById("lab");
const puzzleBox = document.getElementById("lab-puzzle");
const runs = document.getElementById("runs");

function countsOf(view, bridges) {
  const counts = view.lanes.map(() => 0);
  const at = new Map(view.islands.map((isl, i) => [`${isl.row},${isl.col}`, i]));
  for (const [r1, c1, r2, c2, k] of bridges || []) {
    const a = at.get(`${r1},${c1}`);
    const b = at.get(`${r2},${c2}`);
    const lane = view.lanes.findIndex((l) => (l.a === a && l.b === b) || (l.a === b && l.b === a));
    if (lane >= 0) counts[lane] = k;
  }
  return counts;
}

function table(result) {
  const t = document.createElement("table");
  t.className = "stats";
  const row = t.insertRow();
  T.labHeads.forEach((h) => { const th = document.createElement("th"); th.textContent = h; row.appendChild(th); });
  const s = result.stats;
  const values = t.insertRow();
  [word(result.status), s.variables, s.clauses, s.cuts, s.rounds, ms(s.seconds)]
    .forEach((v) => { values.insertCell().textContent = v; });
  return t;
}

// One run: its options, its numbers and a board that steps through the rounds, then the solution.
function showRun(view, result, parent) {
  const box = document.createElement("section");
  box.className = "run card";
  box.dataset.mode = result.mode;
  const head = document.createElement("h2");
  head.textContent = `${word(result.mode)} · ${result.backend} · ${result.card}`;
  // The run scrolls sideways on a narrow screen; a run without rounds has no enabled button inside, so the
  // section itself takes the focus (named by its heading) for the keyboard to scroll it.
  head.id = `run-${parent.childElementCount + 1}`;
  box.tabIndex = 0;
  box.setAttribute("aria-labelledby", head.id);
  box.append(head, table(result));
  const caption = document.createElement("p");
  caption.className = "caption";
  const svg = el("svg", {class: "board small"});
  const nav = document.createElement("div");
  nav.className = "buttons";
  const prev = document.createElement("button");
  prev.type = "button";
  prev.textContent = T.prev;
  const next = document.createElement("button");
  next.type = "button";
  next.textContent = T.next;
  nav.append(prev, next);
  box.append(svg, caption, nav);
  parent.appendChild(box);
  const board = new Board(svg, view);
  const frames = [...result.rounds, null];
  let at = 0;
  function drawFrame() {
    const frame = frames[at];
    const group = new Map();
    if (frame) frame.groups.forEach((g, n) => g.forEach((name) => group.set(name, n % 6)));
    const counts = countsOf(view, frame ? frame.bridges : result.solution);
    const cut = new Set(frame ? frame.cuts.flat() : []);
    board.draw(counts, {
      ghost: (k) => cut.has(view.lanes[k].name),
      islandText: (i) => String(view.islands[i].clue),
      islandClass: (i) => (group.has(view.islands[i].name) ? `group${group.get(view.islands[i].name)}` :
        frame ? "" : "complete"),
    });
    caption.textContent = frame ? T.labRound(at + 1, result.rounds.length, frame.groups.length) :
      result.solution ? T.labFinal(result.stats.rounds) : T.labNone;
    prev.disabled = at === 0;
    next.disabled = at === frames.length - 1;
  }
  prev.addEventListener("click", () => { at = Math.max(0, at - 1); drawFrame(); });
  next.addEventListener("click", () => { at = Math.min(frames.length - 1, at + 1); drawFrame(); });
  drawFrame();
}

async function run(modes) {
  const form_ = new FormData(form);
  const puzzle = puzzleBox.value;
  setStatus(T.solving);
  try {
    const view = await post("puzzle", {puzzle});
    const results = [];
    for (const mode of modes || [form_.get("mode")]) {
      results.push(await post("solve", {puzzle, mode, backend: form_.get("backend"), card: form_.get("card")}));
    }
    runs.replaceChildren();
    runs.classList.toggle("compare", results.length > 1);
    results.forEach((r) => showRun(view, r, runs));
    setStatus(results.map(T.labResult).join("  |  "));
  } catch (err) {
    setStatus(err.message, "error");
  }
}

form.addEventListener("submit", (e) => { e.preventDefault(); run(null); });
document.getElementById("compare").addEventListener("click", () => run(["lazy", "eager"]));

const fromPlay = new URLSearchParams(location.search).get("p") || localStorage.getItem("hashi-play:last");
puzzleBox.value = fromPlay || SAMPLE;
