// The solo roll-and-write game: the server deals, referees every turn and scores; this page draws.
import {post, setStatus} from "./api.js";
import {announce, Board, drawFlag, drawSheet, el, FLAG_H} from "./board.js";
import {T, word} from "./strings.js";

const STORE = "hashi-solo";
const svg = document.getElementById("sheet");
let game = null;       // {side, level, seed, player, info, setup, turns}
let board = null;
let state = null;      // the server's answer for the turns played so far
let pending = {number: null, bridges: []};
let cleared = null;    // the marks Clear took away: Undo clear puts them back until the next mark or turn
let setupIsland = null;
let cursor = -1;       // the keyboard cursor's island, shown only once a key was used
let picked = -1;       // an island picked with Space: the next arrow draws a bridge that way

const labelOf = (i) => game.info.layout.islands[i].label;

function save() {
  localStorage.setItem(STORE, JSON.stringify({side: game.side, level: game.level, seed: game.seed,
    player: game.player, setup: game.setup, turns: game.turns}));
}

function counts() {
  const c = game.info.layout.lanes.map((lane) => (state && state.bridges[lane.name]) || 0);
  for (const name of pending.bridges) c[board.laneByName.get(name)] += 1;
  return c;
}

function draw() {
  const numerals = state ? state.numerals : {};
  drawSheet(board, counts(), {
    text: (i) => {
      const label = labelOf(i);
      if (label in numerals) return String(numerals[label]);
      if (pending.number === label && state && state.card) return String(state.card.numeral);
      return "";
    },
    circled: new Set(state ? state.circled : []),
    pending: [pending.number, setupIsland].filter(Boolean),
    lanes: pending.bridges,
    flagNames: T.flagNames,
    cursor,
    selected: picked,
  });
}

// The goal's symbol beside its name, as on the printed sheet: a flagged island, or three joined islands.
function goalIcon(goal) {
  const icon = el("svg", {class: "goalicon", viewBox: "0 -2.5 28 21", "aria-hidden": "true"});
  if (goal === "six") {
    for (const x of [4.5, 14, 23.5]) el("circle", {cx: x, cy: 13, r: 3.6}, icon);
    el("line", {x1: 8.1, y1: 13, x2: 10.4, y2: 13}, icon);
    el("line", {x1: 17.6, y1: 13, x2: 19.9, y2: 13}, icon);
  } else {
    el("circle", {cx: 4.5, cy: 13.5, r: 4}, icon);
    drawFlag(icon, goal, 7.5, 11, FLAG_H, T.flagNames[goal]);
  }
  return icon;
}

function showGoals() {
  const t = document.getElementById("goals");
  t.replaceChildren();
  const head = t.insertRow();
  T.goalHead.forEach((h) => { const th = document.createElement("th"); th.textContent = h; head.appendChild(th); });
  for (const goal of game.info.goals) {
    const row = t.insertRow();
    row.dataset.goal = goal.goal;
    const reached = state && state.goals[goal.goal];
    row.insertCell().append(goalIcon(goal.goal), T.goalNames[goal.goal]);
    row.insertCell().textContent = goal.limit;
    row.insertCell().textContent = goal.bonus;
    row.insertCell().textContent = reached ? T.goalReached(reached, reached <= goal.limit) : "–";
  }
}

function showCard() {
  const box = document.getElementById("cardbox");
  box.replaceChildren();
  if (!state) return;
  const turn = document.createElement("p");
  turn.className = "turn";
  if (!state.card) return;   // the status line says the game is over, once
  turn.textContent = T.turnOf(state.turn + 1, game.info.turns);
  const numeral = document.createElement("p");
  numeral.className = "numeral";
  numeral.textContent = state.card.numeral;
  const bridges = document.createElement("p");
  bridges.className = "bridges";
  bridges.textContent = T.cardBridges(state.card.bridges);
  box.append(turn, numeral, bridges);
}

function showPending() {
  document.getElementById("pending").textContent = state && state.card ?
    T.pending(pending.number, pending.bridges.length, state.card.bridges) : "";
  // Undo clear takes Clear's place (with nothing left to clear), so the row of buttons keeps its size
  document.getElementById("undo-clear").hidden = !cleared;
  document.getElementById("clear-turn").hidden = Boolean(cleared);
}

function render() {
  const phase = !state ? "setup" : state.card ? "turn" : "over";
  document.getElementById("setup-buttons").hidden = phase !== "setup";
  document.getElementById("turn-buttons").hidden = phase !== "turn";
  document.getElementById("final").hidden = phase !== "over";
  document.getElementById("game-seed").textContent = T.gameSeed(game.side, word(game.level), game.seed);
  document.getElementById("start-summary").textContent = T.gameSummary(game.side, word(game.level), game.seed);
  if (phase === "over") {
    document.getElementById("final-score").textContent = T.finalScore(state.score);
    const rating = document.getElementById("final-rating");
    rating.textContent = state.rating ? T.rating(state.rating) : "";
    // the bands go from the highest rating down: only the upper half is styled as a success
    const band = game.info.ratings.findIndex(([, name]) => name === state.rating);
    rating.className = `rating ${band >= 0 && band < game.info.ratings.length / 2 ? "good" : "plain"}`;
    document.getElementById("record").value = state.record;
  }
  showCard();
  showGoals();
  showPending();
  draw();
}

async function replay(turns) {
  return post("game/play", {side: game.side, level: game.level, seed: game.seed, player: game.player,
    setup: game.setup, turns, lang: document.documentElement.lang});
}

async function begin(saved) {
  try {
    game = {...saved, info: await post("game/new", {side: saved.side, level: saved.level, seed: saved.seed})};
    game.seed = game.info.seed;
    board = new Board(svg, game.info.layout, {sheet: true});
    state = null;
    pending = {number: null, bridges: []};
    cleared = null;
    setupIsland = null;
    if (game.setup) {
      const answer = await replay(game.turns);
      if (answer.legal) state = answer;
      else { game.turns = []; state = await replay([]); }
    }
    document.getElementById("table").hidden = false;
    document.getElementById("start-box").open = false;   // the form folds away while playing
    document.getElementById("table").scrollIntoView({block: "start"});
    document.querySelector("#start [name=seed]").value = String(game.seed);
    save();
    setStatus(state ? T.turnHelp : T.setupPick);
    render();
  } catch (err) {
    setStatus(err.message, "error");
    document.getElementById("table").hidden = false;
  }
}

async function writeSetup(value) {
  if (!setupIsland) { setStatus(T.setupPick, "error"); return; }
  game.setup = `${setupIsland}${value}`;
  const answer = await replay([]).catch((err) => ({legal: false, reason: err.message}));
  if (!answer.legal) {
    game.setup = null;
    setStatus(T.refused(answer.reason), "error");
    return;
  }
  state = answer;
  setupIsland = null;
  save();
  setStatus(T.turnHelp);
  render();
}

async function playTurn() {
  const turn = {number: pending.number && `${pending.number}${state.card.numeral}`, bridges: pending.bridges};
  const answer = await replay([...game.turns, turn]).catch((err) => ({legal: false, reason: err.message}));
  if (!answer.legal) {
    setStatus(T.refused(answer.reason), "error");
    return;
  }
  game.turns.push(turn);
  state = answer;
  pending = {number: null, bridges: []};
  cleared = null;
  save();
  setStatus(state.card ? T.turnHelp : T.gameOver, state.card ? "" : "win");
  render();
}

svg.addEventListener("contextmenu", (e) => e.preventDefault());
svg.addEventListener("pointerup", (e) => {
  if (!board || !game) return;
  const remove = e.button === 2 || e.shiftKey;
  const p = board.point(e);
  const island = board.islandAt(p);
  const laneNode = e.target.closest("[data-lane]");
  const lane = island < 0 ? (laneNode ? board.laneByName.get(laneNode.dataset.lane) : board.laneAt(p, counts())) : -1;
  if (!state) {
    if (island >= 0) { setupIsland = labelOf(island); setStatus(T.setupChosen(setupIsland)); draw(); }
    return;
  }
  if (!state.card) return;
  const before = JSON.stringify(pending);
  if (island >= 0) {
    const label = labelOf(island);
    if (!(label in state.numerals)) pending.number = pending.number === label ? null : label;
  } else if (lane !== undefined && lane >= 0) {
    const name = game.info.layout.lanes[lane].name;
    const at = pending.bridges.lastIndexOf(name);
    if (remove) { if (at >= 0) pending.bridges.splice(at, 1); } else pending.bridges.push(name);
  }
  if (JSON.stringify(pending) !== before) cleared = null;   // a stray click keeps Undo clear
  showPending();
  draw();
});

// --- keyboard: arrows move between islands, Enter writes (or chooses the setup island), Space picks an
// island and an arrow then draws a bridge that way (Shift+arrow takes one back), P plays the turn ---
const ARROWS = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};

function sayIsland(i) {
  const label = labelOf(i);
  const numerals = state ? state.numerals : {};
  const flag = game.info.layout.islands[i].flag;
  announce([label, flag ? T.flagNames[flag] : "", label in numerals ? String(numerals[label]) : T.noNumeral]
    .filter(Boolean).join(", "));
}

function pressIsland(i) {
  const label = labelOf(i);
  if (!state) { setupIsland = label; setStatus(T.setupChosen(label)); return; }
  if (state.card && !(label in state.numerals)) {
    cleared = null;
    pending.number = pending.number === label ? null : label;
    showPending();
    announce(document.getElementById("pending").textContent);
  }
}

function toggleLane(k, remove) {
  const name = game.info.layout.lanes[k].name;
  const at = pending.bridges.lastIndexOf(name);
  if (!remove || at >= 0) {
    if (remove) pending.bridges.splice(at, 1);
    else pending.bridges.push(name);
    cleared = null;
  }
  showPending();
  announce(document.getElementById("pending").textContent);
}

svg.addEventListener("keydown", (e) => {
  if (!board || !game || e.ctrlKey || e.metaKey || e.altKey) return;
  if (cursor < 0 && (e.key in ARROWS || e.key === " " || e.key === "Enter")) {
    e.preventDefault();
    cursor = 0;
    sayIsland(cursor);
    draw();
    return;
  }
  if (e.key in ARROWS) {
    e.preventDefault();
    const [dr, dc] = ARROWS[e.key];
    if (picked >= 0) {
      const k = board.laneToward(picked, dr, dc);
      picked = -1;
      if (k < 0) setStatus(T.noLane, "error");
      else if (state && state.card) toggleLane(k, e.shiftKey);
    } else {
      const next = board.islandToward(cursor, dr, dc);
      if (next >= 0) cursor = next;
      sayIsland(cursor);
    }
  } else if (e.key === "Enter") {
    e.preventDefault();
    pressIsland(cursor);
  } else if (e.key === " ") {
    e.preventDefault();
    picked = picked === cursor ? -1 : cursor;
    announce(picked >= 0 ? T.sayPicked(labelOf(cursor)) : T.sayLetGo);
  } else if (e.key === "Escape") {
    picked = -1;
  } else if ((e.key === "p" || e.key === "P") && state && state.card) {
    e.preventDefault();
    playTurn();
    return;
  } else return;
  draw();
});
svg.addEventListener("pointerdown", () => { cursor = -1; picked = -1; });

document.getElementById("setup-3").addEventListener("click", () => writeSetup(3));
document.getElementById("setup-4").addEventListener("click", () => writeSetup(4));
document.getElementById("play-turn").addEventListener("click", playTurn);
// Clear takes the turn's unplayed marks away; Undo clear brings them back.
document.getElementById("clear-turn").addEventListener("click", () => {
  if (pending.number === null && !pending.bridges.length) return;
  cleared = pending;
  pending = {number: null, bridges: []};
  setStatus(T.cleared);
  showPending();
  draw();
  document.getElementById("undo-clear").focus();
});
document.getElementById("undo-clear").addEventListener("click", () => {
  if (!cleared) return;
  pending = cleared;
  cleared = null;
  setStatus(T.turnHelp);
  showPending();
  draw();
  document.getElementById("clear-turn").focus();
});
document.getElementById("download").addEventListener("click", () => {
  const blob = new Blob([state.record], {type: "text/plain"});
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `hashi-solo-${game.side}-${game.seed}.txt`;
  document.body.appendChild(a);
  a.click();
  a.remove();
});

function startNew() {
  document.getElementById("new-confirm").hidden = true;
  const form = new FormData(document.getElementById("start"));
  begin({side: form.get("side"), level: form.get("level"), player: form.get("player") || null,
    seed: form.get("seed") === "" ? null : Number(form.get("seed")), setup: null, turns: []});
}

// A game in progress is never thrown away without asking.
document.getElementById("start").addEventListener("submit", (e) => {
  e.preventDefault();
  if (game && game.setup && state && state.card) {
    document.getElementById("new-question").textContent = T.newGameAsk(state.turn + 1, game.seed);
    document.getElementById("new-confirm").hidden = false;
    document.getElementById("new-yes").focus();
    return;
  }
  startNew();
});
document.getElementById("new-yes").addEventListener("click", startNew);
document.getElementById("new-no").addEventListener("click", () => {
  document.getElementById("new-confirm").hidden = true;
  document.getElementById("start-box").open = false;
});
document.getElementById("start").addEventListener("input", (e) => {
  if (e.target.name === "seed" && game) document.getElementById("new-confirm").hidden = true;
});

const saved = JSON.parse(localStorage.getItem(STORE) || "null");
if (saved && saved.side) begin(saved);
