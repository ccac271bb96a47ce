// Every sentence the pages' scripts show. The English text is the message id of the same gettext
// catalogs the printed products use (`make catalogs` extracts the _() and ngettext() calls below);
// the page carries this language's translations of them in <script id="messages"> (see web/app.py).
const node = document.getElementById("messages");
const table = node ? JSON.parse(node.textContent || "{}") : {};
const lang = document.documentElement.lang || "en";

// Which plural form a count takes: the Plural-Forms line of each language's catalog, written out.
const PLURAL = {
  fr: (n) => (n === 0 || n === 1 ? 0 : n % 1000000 === 0 ? 1 : 2),
  it: (n) => (n === 1 ? 0 : n !== 0 && n % 1000000 === 0 ? 1 : 2),
  ja: () => 0,
  ko: () => 0,
};

export function pluralForm(n, code = lang) {
  return (PLURAL[code] || ((k) => (k === 1 ? 0 : 1)))(n);
}

// The message in the page's language, with {name} placeholders filled from `values`.
export function _(message, values = {}) {
  const found = table[message];
  return fill(typeof found === "string" && found ? found : message, values);
}

export function ngettext(singular, plural, n, values = {}) {
  const forms = table[singular];
  const all = {n, ...values};
  if (Array.isArray(forms) && forms.length) return fill(forms[Math.min(pluralForm(n), forms.length - 1)], all);
  return fill(n === 1 ? singular : plural, all);
}

function fill(text, values) {
  return text.replace(/\{([a-z_]+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

// Words the server sends as codes (solver statuses, grades, techniques, goals) in the player's words.
const WORDS = {
  unique: _("unique"), multiple: _("multiple"), none: _("none"),
  easy: _("easy"), medium: _("medium"), hard: _("hard"), expert: _("expert"), beyond: _("beyond"),
  normal: _("normal"), lazy: _("lazy"), eager: _("eager"),
  mistake: _("mistake"), complete: _("complete island"), crossing: _("crossing lanes"),
  fill: _("filling up"), spread: _("spreading out"), capacity: _("capacity"), needs: _("needs"),
  pair: _("closed pair"), isolation: _("isolation"), impossible: _("impossible count"),
  "only-way-out": _("only way out"), contradiction: _("contradiction"),
};

// Milliseconds with one decimal, written the way the page's language writes decimals (0.5, 0,5).
const MS = new Intl.NumberFormat(lang, {minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false});
export const ms = (seconds) => `${MS.format(seconds * 1000)} ms`;

// A code in the player's words; a designed word (a rating) is looked up in the catalog as it is.
export const word = (code) => WORDS[code] || _(code);

export const T = {
  loading: _("Loading…"),
  noPuzzle: _("No puzzle yet: make or paste one on the New puzzle page."),
  playing: (n) => ngettext("{n} island. Build the bridges.", "{n} islands. Build the bridges.", n),
  solved: _("Solved! Every island has its bridges and all are connected."),
  crossing: _("That bridge would cross another one."),
  noLane: _("There is no lane that way."),
  checkOk: _("No wrong bridges so far."),
  checkWrong: (n) => ngettext("{n} wrong bridge marked in red.", "{n} wrong bridges marked in red.", n),
  checkNotUnique: _("This puzzle has more than one solution, so no bridge can be called wrong."),
  noSolution: _("This puzzle has no solution: no hint or check can help."),
  manySolutions: _("This puzzle has more than one solution: hints and checks cannot choose between them."),
  stuck: _("An island marked ! can no longer be completed: a closed group, or too few free lanes."),
  lockedIsland: (name) => _("{island} is locked; unlock it first (L or Alt+click).", {island: name}),
  markedLane: _("That lane is marked “no bridge”; right-click it to clear the mark."),
  revealed: _("The solution is shown. Undo takes it back."),
  sayBridges: (lane, n) => ngettext("{lane}: {n} bridge.", "{lane}: {n} bridges.", n, {lane}),
  sayMarked: (lane) => _("{lane}: marked no bridge.", {lane}),
  sayLocked: (name) => _("{island} locked.", {island: name}),
  sayUnlocked: (name) => _("{island} unlocked.", {island: name}),
  sayIsland: (name, clue, have) => _("{island}, needs {clue}, has {have}.", {island: name, clue, have}),
  sayPicked: (name) => _("{island} picked: an arrow builds that way.", {island: name}),
  sayLetGo: _("Let go."),
  hintSolved: _("The bridges drawn solve the puzzle."),
  hintStuck: _("The deducer is stuck here: the puzzle may need a guess."),
  hintBecause: _("It rests on facts you cannot see on the board yet:"),
  nothingToUndo: _("Nothing to undo."),
  nothingToRedo: _("Nothing to redo."),
  generating: _("Generating…"),
  pasted: _("pasted"),
  openPuzzle: _("Play again"),
  generateFailed: _("No puzzle of this size and difficulty could be made in time; try another seed or an easier difficulty."),
  dailyDate: (seed) => _("Today's seed: {seed}.", {seed}),
  dailyButton: (n, grade) => _("{size}×{size}, {difficulty}", {size: n, difficulty: grade}),
  opening: _("Opening…"),
  solving: _("Solving…"),
  labResult: (r) => _("{status} · {variables} variables · {clauses} clauses · {cuts} cuts in {rounds} rounds · {time}",
    {status: word(r.status), variables: r.stats.variables, clauses: r.stats.clauses, cuts: r.stats.cuts,
      rounds: r.stats.rounds, time: ms(r.stats.seconds)}),
  labRound: (i, n, g) => _("Round {i} of {n}: the candidate falls apart into {groups} groups (coloured). Each group gets a cut: one of the dashed lanes leaving it must carry a bridge.",
    {i, n, groups: g}),
  labFinal: (n) => (n ? ngettext("After {n} round of cuts: the solution.", "After {n} rounds of cuts: the solution.", n) :
    _("No cuts were needed: the first candidate was connected.")),
  labNone: _("The puzzle has no solution."),
  labHeads: [_("Status"), _("Variables"), _("Clauses"), _("Cuts"), _("Rounds"), _("Time")],
  prev: _("Previous"), next: _("Next"),
  shuffled: (seed) => _("Shuffled (seed {seed}); one card put away unseen.", {seed}),
  cardTurn: (t, n) => _("Turn {turn} of {turns}", {turn: t, turns: n}),
  cardReady: _("Ready: 17 cards to play."),
  cardBridges: (b) => ngettext("{n} bridge", "{n} bridges", b),
  playedCard: (t, c) => `${t}: ${c.numeral} / ${c.bridges}`,
  cardsDone: _("All 17 cards played. Count your points!"),
  dealAsk: (shown, seed) => _("Shuffle again? This deal (seed {seed}) is at card {shown} of 17.", {shown, seed}),
  setupPick: _("Setup: click an unflagged island, then write a 3 or a 4 on it."),
  setupChosen: (l) => _("Setup on {island}: write a 3 or a 4.", {island: l}),
  turnOf: (t, n) => _("Turn {turn} of {turns}", {turn: t, turns: n}),
  turnHelp: _("Click an island to write the numeral, click lanes to draw bridges, then Play turn."),
  pending: (num, b, want) => _("This turn: numeral {island} · bridges {drawn}/{wanted}",
    {island: num || "–", drawn: b, wanted: want}),
  cleared: _("This turn's marks are cleared; Undo clear brings them back."),
  refused: (reason) => _("Refused: {reason}", {reason}),
  goalNames: {red: _("All red flags"), blue: _("All blue flags"), six: _("Six joined")},
  flagNames: {red: _("Red flag (R)"), blue: _("Blue flag (B)")},
  goalHead: [_("Goal"), _("By turn"), _("Bonus"), _("Reached")],
  goalReached: (t, ok) => (ok ? _("turn {turn} ✓", {turn: t}) : _("turn {turn} (too late)", {turn: t})),
  finalScore: (s) => _("Score {total}: {circled} circled × 2 + bonuses {bonus}", {total: s.total, circled: s.circled,
    bonus: Object.values(s.bonus).reduce((a, b) => a + b, 0)}),
  rating: (r) => _("Rating: {rating}", {rating: word(r)}),
  gameOver: _("Game over."),
  gameSeed: (side, level, seed) => _("Side {side} · {level} · seed {seed}", {side, level, seed}),
  gameSummary: (side, level, seed) => _("New game (now: side {side}, {level}, seed {seed})", {side, level, seed}),
  newGameAsk: (turn, seed) => _("Start a new game? This one (seed {seed}) is at turn {turn}; it cannot be brought back.",
    {turn, seed}),
  noNumeral: _("no numeral"),
};
