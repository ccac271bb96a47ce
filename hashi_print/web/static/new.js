// Making or opening a puzzle: generated on the server, pasted, or typed from a printed book.
import {post, setStatus} from "./api.js";
import {dailySeed, rememberGrade} from "./mine.js";
import {T, word} from "./strings.js";

const sizeSelect = document.getElementById("gen-size");
const gradeSelect = document.getElementById("gen-difficulty");
let offered = {};   // size -> {grade: slowest seconds measured}, from bench/web_sizes.py

function play(id) {
  location.href = `/play?p=${encodeURIComponent(id)}`;
}

// Only the difficulties measured to succeed at the chosen size can be picked.
function limitGrades() {
  const grades = offered[sizeSelect.value] || {};
  for (const option of gradeSelect.options) option.disabled = !(option.value in grades);
  if (gradeSelect.selectedOptions[0].disabled) {
    const first = [...gradeSelect.options].find((o) => !o.disabled);
    if (first) gradeSelect.value = first.value;
  }
}

async function generate(size, difficulty, seed) {
  const body = {width: Number(size), height: Number(size), difficulty};
  if (seed !== null) body.seed = seed;
  setStatus(T.generating);
  try {
    const made = await post("generate", body);
    rememberGrade(made.puzzle, made.grade);
    play(made.puzzle);
  } catch {
    // the server's reason is a developer's English line; the player gets one sentence in their language
    setStatus(T.generateFailed, "error");
  }
}

document.getElementById("generate").addEventListener("submit", (e) => {
  e.preventDefault();
  const form = new FormData(e.target);
  generate(form.get("size"), form.get("difficulty"), form.get("seed") === "" ? null : Number(form.get("seed")));
});

async function open(text) {
  setStatus(T.opening);
  try {
    play((await post("puzzle", {puzzle: text, lang: document.documentElement.lang})).id);
  } catch (err) {
    setStatus(err.message, "error");
  }
}

document.getElementById("paste").addEventListener("submit", (e) => {
  e.preventDefault();
  open(document.getElementById("paste-text").value);
});

document.getElementById("book").addEventListener("submit", (e) => {
  e.preventDefault();
  open(document.getElementById("book-id").value.replace(/\s+/g, ""));
});

async function start() {
  const table = await (await fetch("/static/generate-sizes.json")).json();
  offered = table.sizes;
  sizeSelect.replaceChildren(...Object.keys(offered).map((n) => new Option(`${n}×${n}`, n)));
  sizeSelect.value = "10" in offered ? "10" : Object.keys(offered)[0];
  sizeSelect.addEventListener("change", limitGrades);
  limitGrades();
  const seed = dailySeed();
  document.getElementById("daily-date").textContent = T.dailyDate(seed);
  document.getElementById("daily-buttons").replaceChildren(...Object.keys(offered).filter((n) => "medium" in offered[n])
    .map((n) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.size = n;
      button.textContent = T.dailyButton(n, word("medium"));
      button.addEventListener("click", () => generate(n, "medium", seed));
      return button;
    }));
}

start();
