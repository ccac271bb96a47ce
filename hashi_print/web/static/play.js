// Playing a classic puzzle: every control, undo/redo, hints, checks, the win, reload and share.
import {post, setStatus} from "./api.js";
import {Board} from "./board.js";
import {T, word} from "./strings.js";

const svg = document.getElementById("board");
const params = new URLSearchParams(location.search);
const LAST = "hashi-play:last";

let board = null;
let view = null;
let history = [];      // lane counts as strings, oldest first
let pos = 0;           // index of the current position in history
let status = {complete: new Set(), overfull: new Set(), wrong: new Set(), solved: false};
let showWrong = false;
let highlight = new Set();
let mistakeLanes = new Set();
let cursor = 0;
let selected = -1;
let checkSeq = 0;

const counts = () => history[pos].split("").map(Number);

function bridgesText(c) {
  return view.lanes.map((lane, k) => c[k] === 2 ? lane.name.replace("-", "=") : c[k] === 1 ? lane.name : "")
    .filter(Boolean).join(" ");
}

function storageKey() { return `hashi-play:${view.id}`; }

function save() {
  const c = history[pos];
  const url = `/play?p=${encodeURIComponent(view.id)}${/[12]/.test(c) ? `&b=${c}` : ""}`;
  window.history.replaceState(null, "", url);
  document.getElementById("share").href = url;
  localStorage.setItem(storageKey(), JSON.stringify({history, pos}));
  localStorage.setItem(LAST, view.id);
}

function draw() {
  board.draw(counts(), {
    islandText: (i) => String(view.islands[i].clue),
    islandClass: (i) => {
      const name = view.islands[i].name;
      return [status.overfull.has(name) ? "overfull" : status.complete.has(name) ? "complete" : "",
        highlight.has(name) ? "hl" : ""].join(" ");
    },
    laneClass: (k) => (showWrong && status.wrong.has(view.lanes[k].name)) || mistakeLanes.has(k) ? "wrong" : "",
    cursor, selected,
  });
  svg.classList.toggle("won", status.solved);
  svg.dataset.state = history[pos];
  document.getElementById("undo").disabled = pos === 0;
  document.getElementById("redo").disabled = pos === history.length - 1;
}

async function refresh() {
  const seq = ++checkSeq;
  const asked = history[pos];
  try {
    const r = await post("check", {puzzle: view.id, bridges: bridgesText(counts())});
    if (seq !== checkSeq) return;
    svg.dataset.checked = asked;
    status = {complete: new Set(r.complete), overfull: new Set(r.overfull), wrong: new Set(r.wrong),
      solved: r.solved, unique: r.unique};
    if (r.solved) setStatus(T.solved, "win");
    else if (showWrong) setStatus(!r.unique ? T.checkNotUnique : r.wrong.length ? T.checkWrong(r.wrong.length) : T.checkOk);
    draw();
  } catch (err) {
    if (seq === checkSeq) setStatus(err.message, "error");
  }
}

function commit(next) {
  const text = next.join("");
  if (text === history[pos]) return;
  history = history.slice(0, pos + 1);
  history.push(text);
  pos = history.length - 1;
  showWrong = false;
  highlight = new Set();
  mistakeLanes = new Set();
  document.getElementById("hintbox").hidden = true;
  setStatus(T.playing(view.islands.length));
  save();
  draw();
  refresh();
}

// Build on lane k: one more bridge, cycling 0 -> 1 -> 2 -> 0 (remove: one fewer).
function change(k, remove) {
  if (k < 0) { setStatus(T.noLane, "error"); return; }
  const c = counts();
  if (remove) {
    if (c[k] === 0) return;
    c[k] -= 1;
  } else {
    if (c[k] === 0 && board.crossesBuilt(k, c)) { setStatus(T.crossing, "error"); return; }
    c[k] = (c[k] + 1) % 3;
  }
  commit(c);
}

function undo() {
  if (pos === 0) { setStatus(T.nothingToUndo); return; }
  pos -= 1;
  after();
}

function redo() {
  if (pos === history.length - 1) { setStatus(T.nothingToRedo); return; }
  pos += 1;
  after();
}

function after() {
  showWrong = false;
  highlight = new Set();
  mistakeLanes = new Set();
  setStatus(T.playing(view.islands.length));
  save();
  draw();
  refresh();
}

async function hint() {
  try {
    const step = await post("hint", {puzzle: view.id, bridges: bridgesText(counts()), lang: document.documentElement.lang});
    const box = document.getElementById("hintbox");
    if (step === null) {
      box.hidden = true;
      setStatus(status.solved ? T.hintSolved : T.hintStuck);
      return;
    }
    const c = counts();
    for (const con of step.conclusions) {
      const k = board.laneByName.get(con.lane);
      c[k] = Math.min(Math.max(c[k], con.at_least), con.at_most);
    }
    commit(c);
    highlight = new Set(step.islands);
    mistakeLanes = new Set(step.technique === "mistake" ? step.lanes.map((n) => board.laneByName.get(n)) : []);
    document.getElementById("hint-technique").textContent = word(step.technique);
    document.getElementById("hint-level").textContent = word(step.level);
    document.getElementById("hint-text").textContent = step.text;
    document.getElementById("hint-known").hidden = step.because.length === 0;
    document.getElementById("hint-known").textContent = T.hintBecause;
    const because = document.getElementById("hint-because");
    because.replaceChildren(...step.because.map((s) => {
      const li = document.createElement("li");
      li.textContent = s.text;
      return li;
    }));
    box.hidden = false;
    draw();
  } catch (err) {
    setStatus(err.message, "error");
  }
}

function check() {
  showWrong = true;
  refresh();
}

// --- pointer: click water, drag from an island, click two islands, right-click/Shift to remove ---
let press = null;

svg.addEventListener("contextmenu", (e) => e.preventDefault());
svg.addEventListener("pointerdown", (e) => {
  if (!board) return;
  e.preventDefault();
  svg.focus({preventScroll: true});
  const p = board.point(e);
  press = {p, island: board.islandAt(p), remove: e.button === 2 || e.shiftKey, id: e.pointerId};
  svg.setPointerCapture(e.pointerId);
});
svg.addEventListener("pointerup", (e) => {
  if (!press || e.pointerId !== press.id) return;
  const start = press;
  press = null;
  const p = board.point(e);
  const dx = p.x - start.p.x;
  const dy = p.y - start.p.y;
  const moved = Math.hypot(dx, dy) > 0.45;
  if (start.island >= 0 && moved) {
    const [dr, dc] = Math.abs(dx) > Math.abs(dy) ? [0, Math.sign(dx)] : [Math.sign(dy), 0];
    selected = -1;
    change(board.laneToward(start.island, dr, dc), start.remove);
  } else if (start.island >= 0) {
    cursor = start.island;
    if (selected === start.island) selected = -1;
    else if (selected >= 0 && board.laneBetween(selected, start.island) >= 0) {
      const k = board.laneBetween(selected, start.island);
      selected = -1;
      change(k, start.remove);
    } else selected = start.island;
    draw();
  } else {
    selected = -1;
    const k = board.laneAt(p, counts());
    if (k >= 0) change(k, start.remove);
    else draw();
  }
});
svg.addEventListener("pointercancel", () => { press = null; });

// --- keyboard: Ctrl+Z/Y, H, C, arrows + Space/Enter like Tatham's Bridges ---
const ARROWS = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};

document.addEventListener("keydown", (e) => {
  if (!board || e.target.closest("input, textarea, select")) return;
  const key = e.key.toLowerCase();
  if ((e.ctrlKey || e.metaKey) && key === "z") { e.preventDefault(); (e.shiftKey ? redo : undo)(); return; }
  if ((e.ctrlKey || e.metaKey) && key === "y") { e.preventDefault(); redo(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (key === "h") { e.preventDefault(); hint(); return; }
  if (key === "c") { e.preventDefault(); check(); return; }
  if (e.target !== svg) return;
  if (e.key in ARROWS) {
    e.preventDefault();
    const [dr, dc] = ARROWS[e.key];
    if (selected >= 0) {
      const from = selected;
      selected = -1;
      cursor = from;
      change(board.laneToward(from, dr, dc), e.shiftKey);
      draw();
    } else {
      const next = board.islandToward(cursor, dr, dc);
      if (next >= 0) cursor = next;
      draw();
    }
  } else if (e.key === " " || e.key === "Enter") {
    e.preventDefault();
    selected = selected === cursor ? -1 : cursor;
    draw();
  } else if (e.key === "Escape") {
    selected = -1;
    draw();
  }
});

document.getElementById("undo").addEventListener("click", undo);
document.getElementById("redo").addEventListener("click", redo);
document.getElementById("hint").addEventListener("click", hint);
document.getElementById("check").addEventListener("click", check);
document.getElementById("restart").addEventListener("click", () => commit(counts().map(() => 0)));

// Without a puzzle the page offers the way to one, not an empty board and buttons that do nothing.
function showEmpty(message, kind) {
  setStatus(message, kind);
  for (const id of ["play-buttons", "share-line", "id-line"]) document.getElementById(id).hidden = true;
  svg.closest(".boardwrap").hidden = true;
  document.getElementById("empty").hidden = false;
}

async function start() {
  const id = params.get("p") || localStorage.getItem(LAST);
  if (!id) { showEmpty(T.noPuzzle); return; }
  setStatus(T.loading);
  try {
    view = await post("puzzle", {puzzle: id});
  } catch (err) {
    showEmpty(err.message, "error");
    return;
  }
  board = new Board(svg, view);
  const empty = "0".repeat(view.lanes.length);
  const fromUrl = params.get("b");
  const stored = JSON.parse(localStorage.getItem(storageKey()) || "null");
  const valid = (s) => typeof s === "string" && s.length === empty.length && /^[012]*$/.test(s);
  if (stored && Array.isArray(stored.history) && stored.history.every(valid) &&
      Number.isInteger(stored.pos) && stored.pos >= 0 && stored.pos < stored.history.length &&
      (!valid(fromUrl) || stored.history[stored.pos] === fromUrl)) {
    history = stored.history;
    pos = stored.pos;
  } else {
    history = valid(fromUrl) && fromUrl !== empty ? [empty, fromUrl] : [empty];
    pos = history.length - 1;
  }
  document.getElementById("puzzle-id").textContent = view.id;
  setStatus(T.playing(view.islands.length));
  save();
  draw();
  refresh();
}

start();
