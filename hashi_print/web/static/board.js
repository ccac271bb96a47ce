// Drawing a board (a classic puzzle or a game sheet) as SVG, and finding what a pointer is over.
// The geometry (islands, lanes, crossings) comes from the server; nothing here decides a rule.
const NS = "http://www.w3.org/2000/svg";
export const UNIT = 40;
// Water round a game sheet's grid: the flags of its top row and right column stand outside the grid,
// and a phone's screen edge would cut them off.
const SHEET_PAD = 0.3 * UNIT;
const LABEL_MARGIN = 0.6 * UNIT;

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// A flag on a pole standing at (px, base) whose cloth is h tall, shaped as on the printed sheet
// (flag_shape in render/sheet.py): red a long pennant, blue a square-ended banner, each with its
// letter, so the two tell apart without colour. `label` names it for screen readers and as a tooltip.
export const FLAG_LETTERS = {red: "R", blue: "B"};

export function drawFlag(parent, flag, px, base, h, label) {
  const top = base - 1.5 * h;
  const red = flag === "red";
  const g = el("g", {class: `flag ${flag}`, role: "img", "aria-label": label}, parent);
  el("title", {}, g).textContent = label;
  el("line", {x1: px, y1: base, x2: px, y2: top, class: "pole"}, g);
  const w = red ? 2 * h : 1.35 * h;
  const corners = red ? [[px, top], [px + w, top + h / 2], [px, top + h]] :
    [[px, top], [px + w, top], [px + w, top + h], [px, top + h]];
  el("polygon", {points: corners.map((c) => c.join(",")).join(" "), class: "cloth"}, g);
  const letter = el("text", {x: px + (red ? 0.42 : 0.675) * h, y: top + h / 2 + 0.5, "text-anchor": "middle",
    "dominant-baseline": "central", class: "letter"}, g);
  letter.textContent = FLAG_LETTERS[flag];
  return g;
}

export class Board {
  // view: {rows, cols, islands: [{row, col}], lanes: [{a, b, horizontal, cells, name}], crossings}
  constructor(svg, view, options = {}) {
    this.svg = svg;
    this.view = view;
    this.sheet = Boolean(options.sheet);
    this.laneByName = new Map(view.lanes.map((lane, k) => [lane.name, k]));
    this.islandAtCell = new Map(view.islands.map((isl, i) => [`${isl.row},${isl.col}`, i]));
    this.lanesAtCell = new Map();
    view.lanes.forEach((lane, k) => {
      for (const [r, c] of lane.cells) {
        const key = `${r},${c}`;
        if (!this.lanesAtCell.has(key)) this.lanesAtCell.set(key, []);
        this.lanesAtCell.get(key).push(k);
      }
    });
    this.pad = this.sheet ? SHEET_PAD : 0;
    // Row numbers and column letters beside a classic board, as hints name the islands (C4).
    this.labels = Boolean(options.labels) && Array.isArray(view.col_names);
    this.margin = this.labels ? LABEL_MARGIN : 0;
    const pad = this.pad;
    const m = this.margin;
    svg.setAttribute("viewBox", `${-pad - m} ${-pad - m} ${view.cols * UNIT + 2 * pad + m} ${view.rows * UNIT + 2 * pad + m}`);
  }

  // The next island on the same row or column toward (dr, dc); off that line only when it has none.
  islandToward(i, dr, dc) {
    const isl = this.view.islands[i];
    let best = -1;
    let bestScore = Infinity;
    this.view.islands.forEach((o, j) => {
      const ahead = dr ? (o.row - isl.row) * dr : (o.col - isl.col) * dc;
      const aside = dr ? Math.abs(o.col - isl.col) : Math.abs(o.row - isl.row);
      if (j === i || ahead <= 0) return;
      const score = aside * 10000 + ahead;
      if (score < bestScore) { best = j; bestScore = score; }
    });
    return best;
  }

  centre(i) {
    const isl = this.view.islands[i];
    return [(isl.col + 0.5) * UNIT, (isl.row + 0.5) * UNIT];
  }

  // Pointer position in cell units (column x, row y).
  point(event) {
    const pt = this.svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    return {x: p.x / UNIT, y: p.y / UNIT};
  }

  islandAt(p) {
    const i = this.islandAtCell.get(`${Math.floor(p.y)},${Math.floor(p.x)}`);
    return i === undefined ? -1 : i;
  }

  // The lane under a point of water: a built one first, else the one whose line is nearer.
  laneAt(p, counts) {
    const lanes = this.lanesAtCell.get(`${Math.floor(p.y)},${Math.floor(p.x)}`) || [];
    if (lanes.length <= 1) return lanes.length ? lanes[0] : -1;
    const built = lanes.filter((k) => counts[k] > 0);
    if (built.length === 1) return built[0];
    const dx = Math.abs(p.x - Math.floor(p.x) - 0.5);
    const dy = Math.abs(p.y - Math.floor(p.y) - 0.5);
    return lanes.find((k) => this.view.lanes[k].horizontal === (dy < dx));
  }

  // The lane leaving island i toward (dr, dc), or -1.
  laneToward(i, dr, dc) {
    const isl = this.view.islands[i];
    return this.view.lanes.findIndex((lane) => {
      if (lane.a !== i && lane.b !== i) return false;
      const o = this.view.islands[lane.a === i ? lane.b : lane.a];
      return Math.sign(o.row - isl.row) === dr && Math.sign(o.col - isl.col) === dc;
    });
  }

  laneBetween(i, j) {
    return this.view.lanes.findIndex((l) => (l.a === i && l.b === j) || (l.a === j && l.b === i));
  }

  // Whether a built lane crosses lane k (from the server's crossing lists).
  crossesBuilt(k, counts) {
    return this.view.crossings[k].some((c) => counts[c] > 0);
  }

  // look: {islandText(i), islandClass(i), laneClass(k), ghost(k) to dash an empty lane, marked(k) to cross
  //        one out, laneUnder(k) a class for a wide line under the lane, extra(i, g, cx, cy) for island
  //        decorations, cursor: i, selected: i, hitLanes: bool}
  draw(counts, look) {
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const {rows, cols} = this.view;
    const pad = this.pad;
    el("rect", {x: -pad, y: -pad, width: cols * UNIT + 2 * pad, height: rows * UNIT + 2 * pad, class: "water"}, svg);
    if (this.labels) {
      const names = el("g", {class: "axis", "aria-hidden": "true"}, svg);
      this.view.col_names.forEach((name, c) => {
        el("text", {x: (c + 0.5) * UNIT, y: -this.margin / 2, "text-anchor": "middle", "dominant-baseline": "central"},
          names).textContent = name;
      });
      for (let r = 0; r < rows; r++) {
        el("text", {x: -this.margin / 2, y: (r + 0.5) * UNIT, "text-anchor": "middle", "dominant-baseline": "central"},
          names).textContent = String(r + 1);
      }
    }
    const guides = el("g", {class: "guides"}, svg);
    if (this.sheet) {
      this.view.lanes.forEach((lane) => {
        const [x1, y1] = this.centre(lane.a);
        const [x2, y2] = this.centre(lane.b);
        el("line", {x1, y1, x2, y2, class: "lane-guide"}, guides);
      });
    } else {
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          el("circle", {cx: (c + 0.5) * UNIT, cy: (r + 0.5) * UNIT, r: 1.3, class: "dot"}, guides);
        }
      }
    }
    const bridges = el("g", {class: "bridges"}, svg);
    this.view.lanes.forEach((lane, k) => {
      const [x1, y1] = this.centre(lane.a);
      const [x2, y2] = this.centre(lane.b);
      const cls = `bridge ${look.laneClass ? look.laneClass(k) : ""}`;
      const g = el("g", {"data-lane": lane.name, class: cls}, bridges);
      const n = counts[k];
      if (look.laneUnder && look.laneUnder(k)) el("line", {x1, y1, x2, y2, class: look.laneUnder(k)}, g);
      const offsets = n === 2 ? [-4, 4] : n === 1 ? [0] : [];
      for (const d of offsets) {
        const [ox, oy] = lane.horizontal ? [0, d] : [d, 0];
        el("line", {x1: x1 + ox, y1: y1 + oy, x2: x2 + ox, y2: y2 + oy}, g);
      }
      if (n === 0 && look.ghost && look.ghost(k)) {
        el("line", {x1, y1, x2, y2, class: "ghost"}, g);
      }
      if (n === 0 && look.marked && look.marked(k)) {
        // "no bridge here": a cross in the middle of the lane
        const mx = (x1 + x2) / 2;
        const my = (y1 + y2) / 2;
        const d = UNIT * 0.16;
        el("path", {d: `M${mx - d},${my - d}L${mx + d},${my + d}M${mx - d},${my + d}L${mx + d},${my - d}`,
          class: "nobridge"}, g);
      }
      if (look.hitLanes) {
        el("line", {x1, y1, x2, y2, class: "hit", "data-lane": lane.name}, g);
      }
    });
    const islands = el("g", {class: "islands"}, svg);
    this.view.islands.forEach((isl, i) => {
      const [cx, cy] = this.centre(i);
      let cls = `island ${look.islandClass ? look.islandClass(i) : ""}`;
      if (look.cursor === i) cls += " cursor";
      if (look.selected === i) cls += " selected";
      const g = el("g", {class: cls, "data-island": isl.name || isl.label}, islands);
      el("circle", {cx, cy, r: UNIT * 0.38}, g);
      if (look.extra) look.extra(i, g, cx, cy);
      const text = look.islandText ? look.islandText(i) : "";
      if (text !== "") {
        const t = el("text", {x: cx, y: cy + 1, "text-anchor": "middle", "dominant-baseline": "central"}, g);
        t.textContent = text;
      }
    });
  }
}

// A game sheet drawn as on paper: each island's label, its flag on the circle's upper right and a ring when
// circled. marks: {text(i), circled: Set of labels, pending: labels outlined, lanes: lane names drawn
// this turn, flagNames: {red, blue}, cursor and selected: the keyboard's island (optional)}.
export const FLAG_H = 9;   // a flag's cloth height in board units; the letter's size in style.css fits it

export function drawSheet(board, counts, marks) {
  const islands = board.view.islands;
  board.draw(counts, {
    hitLanes: true,
    islandText: marks.text,
    islandClass: (i) => [marks.circled.has(islands[i].label) ? "circled" : "",
      islands[i].flag ? `flag-${islands[i].flag}` : "", marks.pending.includes(islands[i].label) ? "pending" : ""].join(" "),
    laneClass: (k) => (marks.lanes.includes(board.view.lanes[k].name) ? "pending" : ""),
    cursor: marks.cursor,
    selected: marks.selected,
    extra: (i, g, cx, cy) => {
      const isl = islands[i];
      const label = el("text", {x: cx - UNIT * 0.42, y: cy - UNIT * 0.3, class: "label"}, g);
      label.textContent = isl.label;
      if (isl.flag) drawFlag(g, isl.flag, cx + UNIT * 0.26, cy - UNIT * 0.27, FLAG_H, marks.flagNames[isl.flag]);
      if (marks.circled.has(isl.label)) el("circle", {cx, cy, r: UNIT * 0.46, class: "ring"}, g);
    },
  });
}

// Say something to screen readers through the page's live region (a move, where the cursor is).
export function announce(text) {
  const node = document.getElementById("announce");
  if (node) node.textContent = text;
}
