// Making or opening a puzzle: generated on the server, pasted, or typed from a printed book.
import {post, setStatus} from "./api.js";
import {T} from "./strings.js";

function play(id) {
  location.href = `/play?p=${encodeURIComponent(id)}`;
}

document.getElementById("generate").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = new FormData(e.target);
  const body = {width: Number(form.get("width")), height: Number(form.get("height")),
    difficulty: form.get("difficulty")};
  if (form.get("seed") !== "") body.seed = Number(form.get("seed"));
  setStatus(T.generating);
  try {
    play((await post("generate", body)).puzzle);
  } catch (err) {
    setStatus(err.message, "error");
  }
});

async function open(text) {
  setStatus(T.opening);
  try {
    play((await post("puzzle", {puzzle: text})).id);
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
