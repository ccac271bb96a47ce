// What the game-night pages share: the table's code, the tokens this browser holds, API calls with a
// Bearer token, the live event stream, and the scoreboard.
import {_, ngettext} from "./strings.js";

export const code = decodeURIComponent(location.pathname.split("/")[2] || "").toUpperCase();
const key = (c) => `hashi-table:${c}`;

// The tokens and links this browser keeps for a table (so a reload rejoins where it was).
export function saved(c = code) {
  return JSON.parse(localStorage.getItem(key(c)) || "{}");
}

export function remember(c, values) {
  localStorage.setItem(key(c), JSON.stringify({...saved(c), ...values}));
}

// A call to the table API; a refused one throws an Error with the server's sentence.
export async function call(method, path, {token = null, body = null, form = null} = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== null) headers["Content-Type"] = "application/json";
  const response = await fetch(`/api/tables${path}`, {method, headers,
    body: form || (body === null ? undefined : JSON.stringify(body))});
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

export function setStatus(text, kind = "") {
  const node = document.getElementById("status");
  node.textContent = text;
  node.className = `status ${kind}`;
}

// Listen to the table's events from event `after` on; the browser reconnects by itself and says which
// event it saw last, and `onOpen` runs again after each reconnection so the page catches up.
export function listen(after, handlers, onOpen) {
  const source = new EventSource(`/api/tables/${encodeURIComponent(code)}/events?after=${after}`);
  for (const [name, handle] of Object.entries(handlers)) {
    source.addEventListener(name, (e) => handle(JSON.parse(e.data), Number(e.lastEventId)));
  }
  let opened = false;
  source.addEventListener("open", () => { if (opened) onOpen(); opened = true; });
  return source;
}

export const goalNames = {red: _("All red flags"), blue: _("All blue flags"), six: _("Six joined")};

export function cardBridges(n) {
  return ngettext("{n} bridge", "{n} bridges", n);
}

export function turnOf(turn) {
  return _("Turn {turn} of {turns}", {turn, turns: 17});
}

export function toCome(n) {
  return ngettext("{n} card to come", "{n} cards to come", n);
}

function cell(row, text, tag = "td") {
  const node = document.createElement(tag);
  node.textContent = text;
  row.appendChild(node);
  return node;
}

// Why each bonus went where it did, in sentences.
function reasons(race) {
  const out = [];
  for (const goal of race) {
    const name = goalNames[goal.goal];
    if (!goal.first.length && !goal.later.length && !goal.out.length) {
      out.push(_("{goal}: nobody reached it.", {goal: name}));
      continue;
    }
    for (const p of goal.first) {
      out.push(_("{goal}: {player} first, on turn {turn}: {points} points.",
        {goal: name, player: p.name, turn: p.turn ?? "?", points: p.points}));
    }
    for (const p of goal.later) {
      out.push(_("{goal}: {player} later, on turn {turn}: {points} points.",
        {goal: name, player: p.name, turn: p.turn ?? "?", points: p.points}));
    }
    for (const p of goal.out) {
      out.push(_("{goal}: {player} reached it but broke a rule, so is out of the race.",
        {goal: name, player: p.name}));
    }
  }
  return out;
}

// The scoreboard: one row per player with totals and bonuses, the winners, why, and the record downloads.
export function showScores(view) {
  const board = view.scoreboard;
  document.getElementById("scores").hidden = !board;
  if (!board) return;
  const table = document.getElementById("scoreboard");
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of [_("Player"), _("Circled"), _("Red"), _("Blue"), _("Six"), _("Total"), _("Record")]) {
    cell(head, h, "th");
  }
  board.players.forEach((p, seat) => {
    const row = table.insertRow();
    row.dataset.seat = seat;
    if (board.winners.includes(p.player)) row.className = "winner";
    const who = cell(row, p.player);
    if (!p.ok) {
      const note = document.createElement("small");
      note.textContent = ngettext("{n} rule broken: out of the race", "{n} rules broken: out of the race",
        p.violations);
      who.append(document.createElement("br"), note);
    }
    cell(row, String(p.score.circled));
    for (const goal of ["red", "blue", "six"]) cell(row, goal in p.score.bonus ? String(p.score.bonus[goal]) : "–");
    cell(row, String(p.score.total)).className = "total";
    const link = document.createElement("a");
    link.href = `/api/tables/${encodeURIComponent(code)}/players/${seat}/record`;
    link.download = view.records[seat];
    link.textContent = "↓";
    link.title = _("Download the record");
    link.setAttribute("aria-label", _("Download the record"));
    row.insertCell().appendChild(link);
  });
  document.getElementById("winners").textContent = board.winners.length ?
    ngettext("Winner: {names}", "Winners: {names}", board.winners.length, {names: board.winners.join(", ")}) :
    _("No winner: every player broke a rule.");
  document.getElementById("why").replaceChildren(...reasons(view.race).map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
  document.getElementById("problems").replaceChildren(...board.problems.map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
}
