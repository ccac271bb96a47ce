// A player's page at a table: join with a name, choose the setup for the player on the left, then play
// each revealed card on the phone (refereed by the server) or on paper (then photograph the sheet).
import {Board, drawSheet} from "./board.js";
import {_, ngettext, T} from "./strings.js";
import {call, cardBridges, code, goalNames, listen, remember, saved, setStatus, showScores, turnOf}
  from "./table_common.js";

let token = saved().player;
let view = null;       // the table as everyone sees it
let me = null;         // this player's own seat
let setupBoard = null;
let sheetBoard = null;
let chosen = null;     // the island picked for the setup
let pending = {number: null, bridges: []};
let cleared = null;    // the marks Clear took away: Undo clear puts them back until the next mark or turn
let overlay = null;    // the reading drawn on the photo, as the server last sent it

const $ = (id) => document.getElementById(id);
const nameOf = (seat) => (view.players[seat] ? view.players[seat].name : "?");

function counts(board, bridges, extra = []) {
  const c = board.view.lanes.map((lane) => bridges[lane.name] || 0);
  for (const name of extra) c[board.laneByName.get(name)] += 1;
  return c;
}

function showSetup() {
  const open = view.turn === 0;
  $("setup").hidden = !open;
  if (!open) return;
  const left = nameOf(me.left);
  $("setup-title").textContent = me.left === me.seat ? _("Your setup") :
    _("You set up {player}'s sheet", {player: left});
  $("setup-help").textContent = me.gives ?
    _("Chosen: {numeral} on island {island}. You can change it until the first card.",
      {numeral: me.gives[1], island: me.gives[0]}) :
    _("Tap an unflagged island, then write a 3 or a 4 on it.");
  if (!setupBoard) setupBoard = new Board($("setup-board"), view.layout, {sheet: true});
  const mark = chosen || (me.gives && me.gives[0]);
  drawSheet(setupBoard, counts(setupBoard, {}), {
    text: (i) => (me.gives && view.layout.islands[i].label === me.gives[0] && !chosen ? String(me.gives[1]) : ""),
    circled: new Set(), pending: mark ? [mark] : [], lanes: [], flagNames: T.flagNames,
  });
}

function showReceived() {
  const by = view.players.find((p) => p.left === me.seat);
  const setup = me.setup;
  let text = "";
  if (!setup) {
    text = by ? _("Waiting for {player} to choose the setup of your sheet.", {player: by.name}) : "";
  } else if (me.mode === "paper") {
    text = _("Write a {numeral} on island {island} of your sheet (chosen by {player}).",
      {numeral: setup[1], island: setup[0], player: by.name});
  } else {
    text = _("{player} wrote a {numeral} on island {island} of your sheet.",
      {numeral: setup[1], island: setup[0], player: by.name});
  }
  $("received").textContent = text;
}

// The card this player plays next: the next one their sheet has not played (phone), or the last revealed.
function nextTurn() {
  if (me.mode === "phone") return me.sheet && me.sheet.turn < view.turn ? me.sheet.turn + 1 : null;
  return view.turn || null;
}

function showCard() {
  const box = $("cardbox");
  box.replaceChildren();
  const turn = nextTurn();
  document.body.dataset.turn = view.turn;
  if (!turn) {
    const p = document.createElement("p");
    p.className = "turn";
    p.textContent = view.turn === 17 ? _("All 17 cards played.") : view.turn ? _("Waiting for the next card.") :
      _("Waiting for the host to reveal the first card.");
    box.append(p);
    return;
  }
  const card = view.cards[turn - 1];
  const head = document.createElement("p");
  head.className = "turn";
  head.textContent = turnOf(turn);
  const numeral = document.createElement("p");
  numeral.className = "numeral";
  numeral.textContent = card.numeral;
  const bridges = document.createElement("p");
  bridges.className = "bridges";
  bridges.textContent = cardBridges(card.bridges);
  box.append(head, numeral, bridges);
}

function drawPhone() {
  const sheet = me.sheet || {numerals: {}, bridges: {}, circled: [], goals: {}, turn: 0};
  const turn = nextTurn();
  const card = turn ? view.cards[turn - 1] : null;
  drawSheet(sheetBoard, counts(sheetBoard, sheet.bridges, pending.bridges), {
    text: (i) => {
      const label = view.layout.islands[i].label;
      if (label in sheet.numerals) return String(sheet.numerals[label]);
      return pending.number === label && card ? String(card.numeral) : "";
    },
    circled: new Set(sheet.circled), pending: pending.number ? [pending.number] : [], lanes: pending.bridges,
    flagNames: T.flagNames,
  });
  $("pending").textContent = card ? T.pending(pending.number, pending.bridges.length, card.bridges) : "";
  $("turn-buttons").hidden = !card;
  // Undo clear takes Clear's place (with nothing left to clear), so the row of buttons keeps its size
  $("undo-clear").hidden = !cleared;
  $("clear-turn").hidden = Boolean(cleared);
  $("goals").textContent = Object.entries(sheet.goals).map(([g, t]) =>
    _("{goal}: reached on turn {turn}", {goal: goalNames[g], turn: t})).join(" · ");
}

function showPaper() {
  const reading = me.reading;
  $("paper-help").textContent = view.turn < 17 ? _("Play each card on your printed sheet.") :
    me.done ? _("Your sheet is in.") : _("The game is over: photograph your sheet and send it.");
  $("photo-form").hidden = view.turn < 17 || me.done || Boolean(reading && reading.open.length);
  $("reading").hidden = !reading;
  if (!reading) return;
  $("overlay").hidden = !reading.overlay;
  if (reading.overlay) $("overlay").src = reading.overlay;
  $("reading-status").textContent = reading.open.length ?
    ngettext("The reader is unsure of {n} mark that changes your score: tap what your sheet shows.",
      "The reader is unsure of {n} marks that change your score: tap what your sheet shows.", reading.open.length) :
    _("Your sheet is read.");
  $("doubts").replaceChildren(...reading.open.map((d) => {
    const li = document.createElement("li");
    li.dataset.field = d.field;
    li.dataset.where = d.where;
    li.append(doubtText(d));
    const stakes = document.createElement("small");
    stakes.className = "stakes";
    stakes.textContent = _("A misreading would change {what}.", {what: d.affects.map((a) => STAKES[a] || a).join(", ")});
    for (const value of [d.read, ...d.alternatives]) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = valueText(d.field, value);
      b.dataset.value = JSON.stringify(value);
      b.addEventListener("click", () => settle(d, value));
      li.append(" ", b);
    }
    li.append(document.createElement("br"), stakes);
    return li;
  }));
}

// What a misread mark would change, as the photo reader says.
const STAKES = {score: _("the score"), verdict: _("whether the sheet keeps the rules"),
  race: _("the race for the bonuses")};

function doubtText(d) {
  const what = {number: _("Numeral on island {where}"), bridges: _("Bridges on lane {where}"),
    circled: _("Circle round island {where}"), card: _("Card {where} crossed off"),
    bonus: _("Bonus {where}")}[d.field] || "{where}";
  return `${_(what, {where: d.where})}:`;
}

function valueText(field, value) {
  if (value === null) return _("empty");
  if (value === true) return _("yes");
  if (value === false) return _("no");
  return String(value);
}

async function settle(doubt, value) {
  try {
    me.reading = await call("POST", `/${code}/sheet/settle`, {token, body: {field: doubt.field, where: doubt.where, value}});
    me.done = me.reading.done;
    render();
  } catch (err) {
    setStatus(err.message, "error");
  }
}

function render() {
  $("code").textContent = view.code;
  $("join").hidden = true;
  $("seat").hidden = false;
  $("who").textContent = me.mode === "phone" ?
    _("{player}, seat {seat}, playing on a phone", {player: me.name, seat: me.seat + 1}) :
    _("{player}, seat {seat}, playing on paper", {player: me.name, seat: me.seat + 1});
  showSetup();
  showReceived();
  showCard();
  $("phone").hidden = me.mode !== "phone" || !me.setup;
  $("paper").hidden = me.mode !== "paper";
  if (me.mode === "phone" && me.setup) {
    if (!sheetBoard) sheetBoard = new Board($("sheet"), view.layout, {sheet: true});
    drawPhone();
  }
  if (me.mode === "paper") showPaper();
  showScores(view);
}

async function refresh() {
  [view, me] = await Promise.all([call("GET", `/${code}`), call("GET", `/${code}/me`, {token})]);
  // The server drops the overlay once the table is scored; the page keeps showing the one it got.
  if (me.reading && me.reading.overlay) overlay = me.reading.overlay;
  else if (me.reading) me.reading.overlay = overlay;
  render();
}

async function start() {
  try {
    await refresh();
  } catch (err) {
    if (/token/.test(err.message)) { token = null; remember(code, {player: null}); showJoin(); return; }
    setStatus(err.message, "error");
    return;
  }
  const again = () => refresh().catch((err) => setStatus(err.message, "error"));
  listen(view.event, {join: again, setup: again, done: again, scoreboard: again, reveal: again}, again);
}

function showJoin() {
  $("code").textContent = code;
  $("join").hidden = false;
  call("GET", `/${code}`).then((v) => setStatus(_("Side {side}: join with your name.", {side: v.side})))
    .catch((err) => setStatus(err.message, "error"));
}

$("join").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = new FormData(e.target);
  try {
    const seat = await call("POST", `/${code}/players`, {body: {name: form.get("name"), mode: form.get("mode")}});
    token = seat.player_token;
    remember(code, {player: token});
    setStatus("");
    await start();
  } catch (err) {
    setStatus(err.message, "error");
  }
});

async function give(numeral) {
  if (!chosen) { setStatus(_("Tap an unflagged island first."), "error"); return; }
  try {
    await call("POST", `/${code}/setup`, {token, body: {island: chosen, numeral}});
    chosen = null;
    setStatus("");
    await refresh();
  } catch (err) {
    setStatus(err.message, "error");
  }
}

$("give-3").addEventListener("click", () => give(3));
$("give-4").addEventListener("click", () => give(4));
$("setup-board").addEventListener("pointerup", (e) => {
  if (!setupBoard) return;
  const i = setupBoard.islandAt(setupBoard.point(e));
  if (i >= 0) { chosen = view.layout.islands[i].label; showSetup(); }
});

$("sheet").addEventListener("contextmenu", (e) => e.preventDefault());
$("sheet").addEventListener("pointerup", (e) => {
  if (!sheetBoard || !nextTurn()) return;
  const p = sheetBoard.point(e);
  const island = sheetBoard.islandAt(p);
  const sheet = me.sheet;
  const before = JSON.stringify(pending);
  if (island >= 0) {
    const label = view.layout.islands[island].label;
    if (!(label in sheet.numerals)) pending.number = pending.number === label ? null : label;
  } else {
    const node = e.target.closest("[data-lane]");
    const lane = node ? sheetBoard.laneByName.get(node.dataset.lane) :
      sheetBoard.laneAt(p, counts(sheetBoard, sheet.bridges, pending.bridges));
    if (lane === undefined || lane < 0) return;
    const name = view.layout.lanes[lane].name;
    const at = pending.bridges.lastIndexOf(name);
    if (e.button === 2 || e.shiftKey) { if (at >= 0) pending.bridges.splice(at, 1); } else pending.bridges.push(name);
  }
  if (JSON.stringify(pending) !== before) cleared = null;   // a stray tap keeps Undo clear
  drawPhone();
});

$("play-turn").addEventListener("click", async () => {
  const turn = nextTurn();
  const card = view.cards[turn - 1];
  try {
    me.sheet = await call("POST", `/${code}/turns/${turn}`, {token,
      body: {numeral: pending.number && `${pending.number}${card.numeral}`, bridges: pending.bridges}});
    pending = {number: null, bridges: []};
    cleared = null;
    setStatus("");
    render();
  } catch (err) {
    setStatus(T.refused(err.message), "error");
  }
});
// Clear takes the turn's unplayed marks away; Undo clear brings them back.
$("clear-turn").addEventListener("click", () => {
  if (pending.number === null && !pending.bridges.length) return;
  cleared = pending;
  pending = {number: null, bridges: []};
  setStatus(T.cleared);
  drawPhone();
  $("undo-clear").focus();
});
$("undo-clear").addEventListener("click", () => {
  if (!cleared) return;
  pending = cleared;
  cleared = null;
  setStatus("");
  drawPhone();
  $("clear-turn").focus();
});

async function sendSheet(options) {
  try {
    setStatus(_("Reading your sheet…"));
    // Kept in a local first: a refresh started by the table's events may replace `me` while the photo
    // is read, and the overlay (dropped by the server once the table is scored) must not be lost.
    const reading = await call("POST", `/${code}/sheet`, {token, ...options});
    overlay = reading.overlay;
    me.reading = reading;
    me.done = reading.done;
    setStatus("");
    await refresh();
  } catch (err) {
    setStatus(err.message, "error");
  }
}

$("photo-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const file = $("photo").files[0];
  if (!file) { setStatus(_("Choose or take a photo first."), "error"); return; }
  const form = new FormData();
  form.append("photo", file);
  sendSheet({form});
});
$("send-typed").addEventListener("click", () => sendSheet({body: {sheet: $("typed").value}}));

if (token) start(); else showJoin();
