// Playing a classic puzzle: every control, undo/redo, marks, locks, hints, checks, solve, the timer,
// the win, reload and share.
import {post, setStatus, statusCount} from "./api.js";
import {announce, Board, el, UNIT} from "./board.js";
import {clock, recordSolved} from "./mine.js";
import {T, word} from "./strings.js";

const svg = document.getElementById("board");
const params = new URLSearchParams(location.search);
const LAST = "hashi-play:last";
const LONG_PRESS = 500;   // ms a finger rests before a press counts as a long one (mark / lock)

let board = null;
let view = null;
// Each step of the undo history, oldest first: {lanes, locked}. lanes holds one character per lane: 0, 1, 2
// bridges or x ("no bridge here"); locked the sorted indices of the locked islands (a lock is a step too).
let history = [];
let pos = 0;           // index of the current position in history
let status = {complete: new Set(), overfull: new Set(), wrong: new Set(), closed: new Set(), starved: new Set(),
  solved: false, solutions: "unique"};
let showWrong = false;
let highlight = new Set();
let hinted = new Set();
let mistakeLanes = new Set();
let cursor = 0;
let selected = -1;
let keyboard = false;  // the cursor shows only once the keyboard is used
let checkSeq = 0;
let hints = 0;
let revealed = false;
let seconds = 0;
let moved = false;     // a move was made on this page (reopening a solved puzzle records nothing)

const lanes = () => history[pos].lanes;
const counts = () => lanes().split("").map((ch) => (ch === "x" ? 0 : Number(ch)));
const marked = () => new Set(lanes().split("").flatMap((ch, k) => (ch === "x" ? [k] : [])));
const isLocked = (i) => history[pos].locked.includes(i);
const named = (set, i) => set.has(view.islands[i].name);

function bridgesText(c) {
  return view.lanes.map((lane, k) => c[k] === 2 ? lane.name.replace("-", "=") : c[k] === 1 ? lane.name : "")
    .filter(Boolean).join(" ");
}

function storageKey() { return `hashi-play:${view.id}`; }

function save() {
  const c = lanes();
  const digits = c.replace(/x/g, "0");
  const url = `/play?p=${encodeURIComponent(view.id)}${/[12]/.test(digits) ? `&b=${digits}` : ""}`;
  window.history.replaceState(null, "", url);
  document.getElementById("share").href = url;
  localStorage.setItem(storageKey(), JSON.stringify({history, pos, seconds, hints, revealed}));
  localStorage.setItem(LAST, view.id);
}

// Small shapes on an island, so no state is told by colour alone.
function glyphs(i, g, cx, cy) {
  const r = UNIT * 0.38;
  if (named(status.overfull, i)) {
    el("circle", {cx, cy, r: r + 4, class: "overring"}, g);
  } else if (named(status.closed, i) || named(status.starved, i)) {
    const x = cx + r * 0.75;
    const y = cy - r * 0.75;
    el("path", {d: `M${x},${y - 8}L${x + 8},${y + 6}L${x - 8},${y + 6}Z`, class: "warn"}, g);
    el("text", {x, y: y + 2.5, "text-anchor": "middle", "dominant-baseline": "central", class: "warnmark"}, g)
      .textContent = "!";
  } else if (named(status.complete, i)) {
    el("path", {d: `M${cx + r * 0.45},${cy + r * 0.7}l3,3l6,-7`, class: "tick"}, g);
  }
  if (isLocked(i)) {
    const x = cx - r * 0.9;
    const y = cy + r * 0.55;
    el("path", {d: `M${x - 3},${y}v-3a3,3 0 0 1 6,0v3`, class: "shackle"}, g);
    el("rect", {x: x - 5, y, width: 10, height: 8, rx: 1.5, class: "padlock"}, g);
  }
}

// The connected networks of built bridges, each island's network index (for the optional colours).
function networks(c) {
  const group = view.islands.map((_, i) => i);
  const root = (i) => (group[i] === i ? i : (group[i] = root(group[i])));
  view.lanes.forEach((lane, k) => { if (c[k]) group[root(lane.a)] = root(lane.b); });
  const order = new Map();
  return view.islands.map((_, i) => {
    const r = root(i);
    if (!order.has(r)) order.set(r, order.size);
    return order.get(r);
  });
}

function draw() {
  const c = counts();
  const marks = marked();
  const colour = document.getElementById("colour-nets").checked;
  const nets = colour ? networks(c) : [];
  board.draw(c, {
    islandText: (i) => String(view.islands[i].clue),
    islandClass: (i) => {
      const dead = named(status.closed, i) || named(status.starved, i);
      return [named(status.overfull, i) ? "overfull" : dead ? "dead" : named(status.complete, i) ? "complete" : "",
        highlight.has(view.islands[i].name) ? "hl" : "", isLocked(i) ? "locked" : "",
        colour ? `group${nets[i] % 6}` : ""].join(" ");
    },
    laneClass: (k) => (showWrong && status.wrong.has(view.lanes[k].name)) || mistakeLanes.has(k) ? "wrong" : "",
    laneUnder: (k) => (hinted.has(k) ? "hinted" : ""),
    marked: (k) => marks.has(k),
    extra: glyphs,
    cursor: keyboard ? cursor : -1, selected,
  });
  svg.classList.toggle("won", status.solved);
  svg.classList.toggle("kbd", keyboard);
  svg.dataset.state = lanes();
  document.getElementById("undo").disabled = pos === 0;
  document.getElementById("redo").disabled = pos === history.length - 1;
}

function warnSolutions() {
  const note = document.getElementById("warning");
  note.hidden = status.solutions === "unique";
  note.textContent = status.solutions === "none" ? T.noSolution : status.solutions === "multiple" ? T.manySolutions : "";
}

async function refresh() {
  const seq = ++checkSeq;
  const asked = lanes();
  const shown = statusCount();
  try {
    const r = await post("check", {puzzle: view.id, bridges: bridgesText(counts())});
    if (seq !== checkSeq) return;
    svg.dataset.checked = asked;
    const wasSolved = status.solved;
    status = {complete: new Set(r.complete), overfull: new Set(r.overfull), wrong: new Set(r.wrong),
      closed: new Set(r.closed || []), starved: new Set(r.starved || []), solved: r.solved,
      solutions: r.solutions || (r.unique ? "unique" : "multiple")};
    warnSolutions();
    if (r.solved) {
      setStatus(T.solved, "win");
      if (!wasSolved && !revealed && moved) recordSolved(view, seconds, hints);
    } else if (statusCount() !== shown) {
      // A line said while the check was on its way (a locked island, a crossing) answers the player's
      // latest action, so it stays; the board's marks below still show the check.
    } else if (showWrong) setStatus(checkMessage(r));
    else if (status.closed.size || status.starved.size) setStatus(T.stuck, "error");
    draw();
  } catch (err) {
    if (seq === checkSeq) setStatus(err.message, "error");
  }
}

function checkMessage(r) {
  if (status.solutions === "none") return T.noSolution;
  if (status.solutions === "multiple") return T.checkNotUnique;
  return r.wrong.length ? T.checkWrong(r.wrong.length) : T.checkOk;
}

function clearMarks() {
  showWrong = false;
  highlight = new Set();
  hinted = new Set();
  mistakeLanes = new Set();
  document.getElementById("hintbox").hidden = true;
}

// A new step after the present one (the redo steps beyond it are dropped): the lanes, and the locks,
// which stay as they are unless given.
function commit(next, locks = history[pos].locked) {
  const step = {lanes: next.join(""), locked: [...locks].sort((a, b) => a - b)};
  if (step.lanes === lanes() && step.locked.join() === history[pos].locked.join()) return;
  history = history.slice(0, pos + 1);
  history.push(step);
  pos = history.length - 1;
  moved = true;
  clearMarks();
  setStatus(T.playing(view.islands.length));
  save();
  draw();
  refresh();
}

function state() { return lanes().split(""); }

function lockedEnd(k) {
  const lane = view.lanes[k];
  return isLocked(lane.a) ? lane.a : isLocked(lane.b) ? lane.b : -1;
}

// Build on lane k: one more bridge, cycling 0 -> 1 -> 2 -> 0. remove: one fewer, or on an empty lane
// the "no bridge here" mark on or off.
function change(k, remove) {
  if (k < 0) { setStatus(T.noLane, "error"); return; }
  if (lockedEnd(k) >= 0) { setStatus(T.lockedIsland(view.islands[lockedEnd(k)].name), "error"); return; }
  const s = state();
  const c = counts();
  if (remove) {
    s[k] = s[k] === "x" ? "0" : c[k] === 0 ? "x" : String(c[k] - 1);
  } else if (s[k] === "x") {
    setStatus(T.markedLane, "error");
    return;
  } else {
    if (c[k] === 0 && board.crossesBuilt(k, c)) { setStatus(T.crossing, "error"); return; }
    s[k] = String((c[k] + 1) % 3);
  }
  commit(s);
  const n = Number(s[k] === "x" ? 0 : s[k]);
  announce(s[k] === "x" ? T.sayMarked(view.lanes[k].name) : T.sayBridges(view.lanes[k].name, n));
}

// Locking or unlocking is one undo step, like a bridge.
function toggleLock(i) {
  const was = history[pos].locked;
  commit(state(), was.includes(i) ? was.filter((j) => j !== i) : [...was, i]);
  announce(isLocked(i) ? T.sayLocked(view.islands[i].name) : T.sayUnlocked(view.islands[i].name));
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
  clearMarks();
  setStatus(T.playing(view.islands.length));
  save();
  draw();
  refresh();
}

async function hint() {
  if (status.solutions !== "unique") { setStatus(checkMessage({wrong: []}), "error"); return; }
  try {
    const step = await post("hint", {puzzle: view.id, bridges: bridgesText(counts()), lang: document.documentElement.lang});
    const box = document.getElementById("hintbox");
    if (step === null) {
      box.hidden = true;
      setStatus(status.solved ? T.hintSolved : T.hintStuck);
      return;
    }
    const s = state();
    const c = counts();
    for (const con of step.conclusions) {
      const k = board.laneByName.get(con.lane);
      const n = Math.min(Math.max(c[k], con.at_least), con.at_most);
      if (n !== c[k]) s[k] = String(n);
    }
    commit(s);
    hints += 1;
    save();
    highlight = new Set(step.islands);
    hinted = new Set(step.conclusions.map((con) => board.laneByName.get(con.lane)));
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

// Solve: first a question, then the solution drawn as one step that Undo takes back.
function askSolve() {
  document.getElementById("solve-confirm").hidden = false;
  document.getElementById("solve-yes").focus();
}

async function solveNow() {
  document.getElementById("solve-confirm").hidden = true;
  if (status.solutions !== "unique") { setStatus(checkMessage({wrong: []}), "error"); return; }
  try {
    const r = await post("solve", {puzzle: view.id});
    const s = view.lanes.map(() => "0");
    for (const [r1, c1, r2, c2, n] of r.solution) {
      const a = board.islandAtCell.get(`${r1},${c1}`);
      const b = board.islandAtCell.get(`${r2},${c2}`);
      s[board.laneBetween(a, b)] = String(n);
    }
    revealed = true;
    commit(s);
    setStatus(T.revealed);
  } catch (err) {
    setStatus(err.message, "error");
  }
}

// --- the timer: counts while the page is shown and the puzzle unsolved ---
function tick() {
  if (!view || document.visibilityState !== "visible" || status.solved) return;
  seconds += 1;
  showTime();
  if (seconds % 5 === 0) save();
}

function showTime() {
  document.getElementById("timer").textContent = clock(seconds);
  document.getElementById("timer").dataset.seconds = String(seconds);
}

setInterval(tick, 1000);
document.addEventListener("visibilitychange", () => { if (view) save(); });

// --- pointer: click water, drag from an island, click two islands; right button, Shift or a long press
// takes a bridge away or marks an empty lane "no bridge"; Alt+click or a long press on an island locks it ---
let press = null;
const fingers = new Map();   // touch pointers down on the board: two make a pinch or a pan
let gesture = null;

svg.addEventListener("contextmenu", (e) => e.preventDefault());
svg.addEventListener("pointerdown", (e) => {
  if (!board) return;
  if (e.pointerType === "touch") fingers.set(e.pointerId, {x: e.clientX, y: e.clientY});
  if (fingers.size === 2) { startGesture(); press = null; return; }
  if (press && press.id !== e.pointerId) { press = null; return; }
  e.preventDefault();
  keyboard = false;
  const p = board.point(e);
  press = {p, island: board.islandAt(p), remove: e.button === 2 || e.shiftKey, lock: e.altKey, id: e.pointerId,
    at: performance.now(), touch: e.pointerType === "touch"};
  svg.focus({preventScroll: true});
  svg.setPointerCapture(e.pointerId);
});
svg.addEventListener("pointermove", (e) => {
  if (!fingers.has(e.pointerId)) return;
  fingers.set(e.pointerId, {x: e.clientX, y: e.clientY});
  if (gesture && fingers.size === 2) moveGesture();
});
const lift = (e) => {
  fingers.delete(e.pointerId);
  if (fingers.size < 2) gesture = null;
};
svg.addEventListener("pointerup", lift);
svg.addEventListener("pointercancel", lift);
svg.addEventListener("pointerup", (e) => {
  if (!press || e.pointerId !== press.id) return;
  const start = press;
  press = null;
  const p = board.point(e);
  const dx = p.x - start.p.x;
  const dy = p.y - start.p.y;
  const moved = Math.hypot(dx, dy) > 0.45;
  const long = start.touch && performance.now() - start.at >= LONG_PRESS;
  const remove = start.remove || long;
  if (start.island >= 0 && moved) {
    const [dr, dc] = Math.abs(dx) > Math.abs(dy) ? [0, Math.sign(dx)] : [Math.sign(dy), 0];
    selected = -1;
    change(board.laneToward(start.island, dr, dc), remove);
  } else if (start.island >= 0 && (start.lock || long)) {
    selected = -1;
    toggleLock(start.island);
  } else if (start.island >= 0) {
    cursor = start.island;
    if (selected === start.island) selected = -1;
    else if (selected >= 0 && board.laneBetween(selected, start.island) >= 0) {
      const k = board.laneBetween(selected, start.island);
      selected = -1;
      change(k, remove);
    } else selected = start.island;
    draw();
  } else {
    selected = -1;
    const k = board.laneAt(p, counts());
    if (k >= 0) change(k, remove);
    else draw();
  }
});
svg.addEventListener("pointercancel", () => { press = null; });

// --- big boards on a phone: Zoom (a button or a pinch) gives every cell 44 px; two fingers pan ---
const ZOOM_CELL = 44;
const wrap = svg.closest(".boardwrap");

function twoFingers() {
  const [a, b] = [...fingers.values()];
  return {d: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2};
}

function startGesture() {
  gesture = {...twoFingers(), left: wrap.scrollLeft, top: wrap.scrollTop};
}

function moveGesture() {
  const now = twoFingers();
  if (now.d > gesture.d * 1.25 && !zoomed()) { zoom(true); startGesture(); return; }
  if (now.d < gesture.d * 0.8 && zoomed()) { zoom(false); startGesture(); return; }
  wrap.scrollLeft = gesture.left - (now.x - gesture.x);
  wrap.scrollTop = gesture.top - (now.y - gesture.y);
}

const zoomed = () => wrap.classList.contains("zoomed");

function zoom(on) {
  wrap.classList.toggle("zoomed", on);
  const units = (board.view.cols * UNIT + board.margin) / UNIT;
  svg.style.width = on ? `${Math.ceil(units * ZOOM_CELL)}px` : "";
  document.getElementById("zoom").setAttribute("aria-pressed", String(on));
}

document.getElementById("zoom").addEventListener("click", () => zoom(!zoomed()));

// --- keyboard: Ctrl+Z/Y, H, C, L, X, arrows + Space/Enter like Tatham's Bridges ---
const ARROWS = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};

function sayCursor() {
  const isl = view.islands[cursor];
  const have = board.view.lanes.reduce((n, lane, k) => n + (lane.a === cursor || lane.b === cursor ? counts()[k] : 0), 0);
  announce(T.sayIsland(isl.name, isl.clue, have) + (isLocked(cursor) ? ` ${T.sayLocked(isl.name)}` : ""));
}

document.addEventListener("keydown", (e) => {
  if (!board || e.target.closest("input, textarea, select")) return;
  const key = e.key.toLowerCase();
  if ((e.ctrlKey || e.metaKey) && key === "z") { e.preventDefault(); (e.shiftKey ? redo : undo)(); return; }
  if ((e.ctrlKey || e.metaKey) && key === "y") { e.preventDefault(); redo(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (key === "h") { e.preventDefault(); hint(); return; }
  if (key === "c") { e.preventDefault(); check(); return; }
  if (e.target !== svg) return;
  const first = !keyboard;
  if (e.key in ARROWS || [" ", "Enter", "l", "L"].includes(e.key)) keyboard = true;
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
      const next = first ? cursor : board.islandToward(cursor, dr, dc);
      if (next >= 0) cursor = next;
      draw();
      sayCursor();
    }
  } else if (e.key === " " || e.key === "Enter") {
    e.preventDefault();
    selected = selected === cursor ? -1 : cursor;
    draw();
    announce(selected >= 0 ? T.sayPicked(view.islands[cursor].name) : T.sayLetGo);
  } else if (key === "l") {
    e.preventDefault();
    toggleLock(cursor);
  } else if (e.key === "Escape") {
    selected = -1;
    draw();
  }
});
// Tabbing to the board shows the cursor at once; a click's focus does not.
svg.addEventListener("focus", () => { keyboard = svg.matches(":focus-visible") && !press; if (board) draw(); });
svg.addEventListener("blur", () => { keyboard = false; if (board) draw(); });

document.getElementById("undo").addEventListener("click", undo);
document.getElementById("redo").addEventListener("click", redo);
document.getElementById("hint").addEventListener("click", hint);
document.getElementById("check").addEventListener("click", check);
document.getElementById("solve").addEventListener("click", askSolve);
document.getElementById("solve-yes").addEventListener("click", solveNow);
document.getElementById("solve-no").addEventListener("click", () => {
  document.getElementById("solve-confirm").hidden = true;
  document.getElementById("solve").focus();
});
// Restart empties the board and lets go of every lock, as one step that Undo takes back.
document.getElementById("restart").addEventListener("click", () => commit(counts().map(() => "0"), []));
document.getElementById("colour-nets").addEventListener("change", () => { if (board) draw(); });

// Without a puzzle the page offers the way to one, not an empty board and buttons that do nothing.
function showEmpty(message, kind) {
  setStatus(message, kind);
  for (const id of ["play-buttons", "share-line", "id-line", "tools"]) document.getElementById(id).hidden = true;
  svg.closest(".boardwrap").hidden = true;
  document.getElementById("empty").hidden = false;
}

// The position to start from: the stored history, and a share link's position as one more undo step
// (without locks). A history stored before locks were steps (lane strings and one list of locks) gets
// those locks on every step.
function restore(stored, fromUrl, empty, islands) {
  const lanesOk = (s) => typeof s === "string" && s.length === empty.length && /^[012x]*$/.test(s);
  const locksOk = (l) => Array.isArray(l) && l.every((i) => Number.isInteger(i) && i >= 0 && i < islands);
  const oldLocks = stored && locksOk(stored.locked) ? [...stored.locked].sort((a, b) => a - b) : [];
  const step = (s) => (typeof s === "string" ? {lanes: s, locked: oldLocks} : s);
  const valid = (s) => Boolean(s) && typeof s === "object" && lanesOk(s.lanes) && locksOk(s.locked);
  const digits = (s) => s.replace(/x/g, "0");
  const url = typeof fromUrl === "string" && fromUrl.length === empty.length && /^[012]*$/.test(fromUrl) ? fromUrl : null;
  const h = stored && Array.isArray(stored.history) ? stored.history.map(step) : [];
  if (h.length && h.every(valid) && Number.isInteger(stored.pos) && stored.pos >= 0 && stored.pos < h.length) {
    h.forEach((s, n) => { h[n] = {lanes: s.lanes, locked: [...s.locked].sort((a, b) => a - b)}; });
    if (!url || digits(h[stored.pos].lanes) === url) return {history: h, pos: stored.pos};
    // an older (or other) shared position: added after the present one, so undo goes back to it
    return {history: [...h, {lanes: url, locked: []}], pos: h.length};
  }
  const fresh = url && url !== empty ? [empty, url] : [empty];
  return {history: fresh.map((text) => ({lanes: text, locked: []})), pos: fresh.length - 1};
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
  board = new Board(svg, view, {labels: true});
  const empty = "0".repeat(view.lanes.length);
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem(storageKey()) || "null"); } catch { stored = null; }
  ({history, pos} = restore(stored, params.get("b"), empty, view.islands.length));
  if (stored) {
    seconds = Number.isInteger(stored.seconds) && stored.seconds >= 0 ? stored.seconds : 0;
    hints = Number.isInteger(stored.hints) ? stored.hints : 0;
    revealed = Boolean(stored.revealed);
  }
  document.getElementById("puzzle-id").textContent = view.id;
  document.getElementById("zoom").hidden = Math.max(view.cols, view.rows) < 15;
  showTime();
  setStatus(T.playing(view.islands.length));
  save();
  draw();
  refresh();
}

start();
