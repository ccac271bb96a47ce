// The host's screen: the card flipper for the whole table (large numeral and bridges, the turn and the
// cards to come), the join link and QR code, who has joined and set up, and the scoreboard.
import {_, ngettext} from "./strings.js";
import {call, cardBridges, code, listen, saved, setStatus, showScores, toCome, turnOf} from "./table_common.js";

const token = saved().host;
const button = document.getElementById("reveal");
let view = null;

function showCard() {
  const card = view.cards[view.turn - 1];
  document.getElementById("turn").textContent = view.turn ? turnOf(view.turn) : _("Ready: 17 cards to play.");
  document.getElementById("numeral").textContent = card ? card.numeral : "";
  document.getElementById("bridges").textContent = card ? cardBridges(card.bridges) : "";
  document.getElementById("bigcard").classList.toggle("face", Boolean(card));
  document.getElementById("to-come").textContent = toCome(view.to_come);
  document.body.dataset.turn = view.turn;
  button.disabled = !token || view.turn >= 17 || !view.players.length;
  document.getElementById("played").replaceChildren(...view.cards.map((c, n) => {
    const li = document.createElement("li");
    li.textContent = `${n + 1}: ${c.numeral} / ${c.bridges}`;
    return li;
  }));
}

function playerLine(p) {
  const left = view.players[p.left];
  const mode = p.mode === "phone" ? _("phone") : _("paper");
  let state;
  if (view.turn === 0) {
    state = p.setup_given ? _("set up {player}'s sheet", {player: left.name}) :
      _("is choosing the setup for {player}", {player: left.name});
  } else if (p.done) {
    state = _("sheet in");
  } else if (p.mode === "phone") {
    state = ngettext("{n} turn played", "{n} turns played", p.turns);
  } else {
    state = view.turn === 17 ? _("sending the sheet") : _("playing on paper");
  }
  return `${p.name} (${mode}): ${state}`;
}

function render() {
  document.getElementById("code").textContent = view.code;
  document.getElementById("side").textContent = _("Side {side}", {side: view.side});
  document.getElementById("players").replaceChildren(...view.players.map((p) => {
    const li = document.createElement("li");
    li.dataset.seat = p.seat;
    li.textContent = playerLine(p);
    return li;
  }));
  if (!view.players.length) setStatus(_("Waiting for players: they scan the code or open the link."));
  else if (document.getElementById("status").textContent === _("Waiting for players: they scan the code or open the link.")) setStatus("");
  showCard();
  showScores(view);
}

async function refresh() {
  view = await call("GET", `/${code}`);
  render();
}

button.addEventListener("click", async () => {
  button.disabled = true;
  try {
    const shown = await call("POST", `/${code}/reveal`, {token});
    if (shown.turn > view.turn) {
      view.turn = shown.turn;
      view.cards = [...view.cards.slice(0, shown.turn - 1), shown.card];
      view.to_come = 17 - shown.turn;
    }
    setStatus("");
  } catch (err) {
    setStatus(err.message, "error");
  }
  showCard();
});

document.addEventListener("keydown", (e) => {
  if ((e.key === "ArrowRight" || e.key === "n") && !button.disabled) { e.preventDefault(); button.click(); }
});

async function start() {
  const link = saved().join || `${location.origin}/table/${code}`;
  const anchor = document.getElementById("join-link");
  anchor.href = link;
  anchor.textContent = link;
  document.getElementById("qr").src = `/table/${encodeURIComponent(code)}/qr.svg`;
  try {
    await refresh();
  } catch (err) {
    setStatus(err.message, "error");
    button.disabled = true;
    return;
  }
  if (!token) setStatus(_("This browser did not make the table, so it cannot reveal cards."), "error");
  const again = () => refresh().catch((err) => setStatus(err.message, "error"));
  listen(view.event, {
    join: again, setup: again, done: again, scoreboard: again,
    reveal: (shown) => {
      if (shown.turn > view.turn) {
        view.turn = shown.turn;
        view.cards = [...view.cards.slice(0, shown.turn - 1), shown.card];
        view.to_come = 17 - shown.turn;
        showCard();
      }
      again();
    },
  }, again);
}

start();
