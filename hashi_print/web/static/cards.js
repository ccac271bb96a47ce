// The card flipper: the server shuffles the 18 cards and puts one away; the page reveals the 17 others.
// The deal (its seed and how far it got) survives a reload; the seed can be typed to deal the same again.
import {post} from "./api.js";
import {T} from "./strings.js";

const STORE = "hashi-cards";
let cards = [];
let seed = null;
let shown = 0;

const reveal = document.getElementById("reveal");
const seedInput = document.getElementById("deal-seed");

function save() {
  localStorage.setItem(STORE, JSON.stringify({seed, shown}));
}

function show() {
  const card = cards[shown - 1];
  document.getElementById("turn").textContent = shown ? T.cardTurn(shown, cards.length) : T.cardReady;
  document.getElementById("numeral").textContent = card ? card.numeral : "";
  document.getElementById("bridges").textContent = card ? T.cardBridges(card.bridges) : "";
  document.getElementById("bigcard").classList.toggle("face", Boolean(card));
  reveal.disabled = shown >= cards.length;
  document.getElementById("deal-info").textContent = cards.length && shown >= cards.length ? T.cardsDone :
    seed === null ? "" : T.shuffled(seed);
  const list = document.getElementById("played");
  list.replaceChildren(...cards.slice(0, shown).map((c, n) => {
    const li = document.createElement("li");
    li.textContent = T.playedCard(n + 1, c);
    return li;
  }));
}

async function dealNow(wanted, upTo = 0) {
  try {
    const deal = await post("deal", wanted === null ? {} : {seed: wanted});
    cards = deal.cards;
    seed = deal.seed;
    shown = Math.min(upTo, cards.length);
    seedInput.value = String(seed);
    save();
    show();
  } catch (err) {
    document.getElementById("deal-info").textContent = err.message;
  }
}

// A deal under way is not shuffled away without asking.
document.getElementById("deal-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const wanted = seedInput.value === "" || Number(seedInput.value) === seed ? null : Number(seedInput.value);
  if (shown > 0 && shown < cards.length) {
    document.getElementById("deal-question").textContent = T.dealAsk(shown, seed);
    document.getElementById("deal-confirm").hidden = false;
    document.getElementById("deal-yes").dataset.seed = wanted === null ? "" : String(wanted);
    document.getElementById("deal-yes").focus();
    return;
  }
  dealNow(wanted).then(() => reveal.focus());
});
document.getElementById("deal-yes").addEventListener("click", (e) => {
  document.getElementById("deal-confirm").hidden = true;
  dealNow(e.target.dataset.seed === "" ? null : Number(e.target.dataset.seed)).then(() => reveal.focus());
});
document.getElementById("deal-no").addEventListener("click", () => {
  document.getElementById("deal-confirm").hidden = true;
  reveal.focus();
});

reveal.addEventListener("click", () => {
  if (shown < cards.length) shown += 1;
  save();
  show();
});

document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, textarea, select")) return;
  if ((e.key === "ArrowRight" || e.key === "n") && !reveal.disabled) { e.preventDefault(); reveal.click(); }
});

let saved = null;
try { saved = JSON.parse(localStorage.getItem(STORE) || "null"); } catch { saved = null; }
if (saved && Number.isInteger(saved.seed) && Number.isInteger(saved.shown)) dealNow(saved.seed, saved.shown);
