// The card flipper: the server shuffles the 18 cards and puts one away; the page reveals the 17 others.
import {post} from "./api.js";
import {T} from "./strings.js";

let cards = [];
let shown = 0;

const reveal = document.getElementById("reveal");

function show() {
  const card = cards[shown - 1];
  document.getElementById("turn").textContent = shown ? T.cardTurn(shown, cards.length) : T.cardReady;
  document.getElementById("numeral").textContent = card ? card.numeral : "";
  document.getElementById("bridges").textContent = card ? T.cardBridges(card.bridges) : "";
  document.getElementById("bigcard").classList.toggle("face", Boolean(card));
  reveal.disabled = shown >= cards.length;
  if (cards.length && shown >= cards.length) document.getElementById("deal-info").textContent = T.cardsDone;
  const list = document.getElementById("played");
  list.replaceChildren(...cards.slice(0, shown).map((c, n) => {
    const li = document.createElement("li");
    li.textContent = T.playedCard(n + 1, c);
    return li;
  }));
}

document.getElementById("shuffle").addEventListener("click", async () => {
  try {
    const deal = await post("deal", {});
    cards = deal.cards;
    shown = 0;
    document.getElementById("deal-info").textContent = T.shuffled(deal.seed);
    show();
    reveal.focus();
  } catch (err) {
    document.getElementById("deal-info").textContent = err.message;
  }
});

reveal.addEventListener("click", () => {
  if (shown < cards.length) shown += 1;
  show();
});

document.addEventListener("keydown", (e) => {
  if ((e.key === "ArrowRight" || e.key === "n") && !reveal.disabled) { e.preventDefault(); reveal.click(); }
});

