// Personal progress, kept only in this browser (localStorage): puzzles solved, their times and hints,
// the grade of each generated puzzle, and the daily puzzle's seed.
const STORE = "hashi-mine";
const GRADES = "hashi-mine:grades";

function load(key, fallback) {
  try {
    const found = JSON.parse(localStorage.getItem(key) || "null");
    return found && typeof found === "object" ? found : fallback;
  } catch {
    return fallback;
  }
}

export function solvedList() {
  const found = load(STORE, {solved: []});
  return Array.isArray(found.solved) ? found.solved : [];
}

// Remember the grade of a generated puzzle, so its solve counts under that difficulty.
export function rememberGrade(id, grade) {
  const grades = load(GRADES, {});
  grades[id] = grade;
  localStorage.setItem(GRADES, JSON.stringify(grades));
}

export function recordSolved(view, seconds, hints) {
  const grade = load(GRADES, {})[view.id] || "unknown";
  const list = solvedList().filter((s) => s.id !== view.id);
  list.push({id: view.id, size: `${view.cols}x${view.rows}`, difficulty: grade, seconds, hints,
    date: new Date().toISOString().slice(0, 10)});
  localStorage.setItem(STORE, JSON.stringify({format: "hashi-mine/1", solved: list}));
}

// Per difficulty: how many solved, the best and the mean time in seconds, and the hints used.
export function summary(list = solvedList()) {
  const out = new Map();
  for (const s of list) {
    const row = out.get(s.difficulty) || {difficulty: s.difficulty, solved: 0, best: Infinity, total: 0, hints: 0};
    row.solved += 1;
    row.best = Math.min(row.best, s.seconds);
    row.total += s.seconds;
    row.hints += s.hints;
    out.set(s.difficulty, row);
  }
  return [...out.values()].map((r) => ({...r, mean: Math.round(r.total / r.solved)}));
}

export function exportText() {
  return JSON.stringify({format: "hashi-mine/1", solved: solvedList()}, null, 1);
}

// The daily puzzle's seed: the date in UTC written as digits (2026-12-02 -> 20261202), the same for everyone.
export function dailySeed(date = new Date()) {
  return Number(date.toISOString().slice(0, 10).replace(/-/g, ""));
}

export function clock(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
