// The replay page's analysis (GET /api/games/{id}/analysis): asked for with one button once
// the game is over, then filled in as the server judges each decision. A chart of each
// player's chance of winning (from that player's own view at each of their decisions: before
// the move at the step before it, after it at its step), with its axes (the chance in percent,
// the move number), the step on screen and the marked moves, each a button to its step; the
// marked moves listed too, in a panel of their own; and for the step on screen, the judgement
// of the move that led there (`show`). While the analysis waits its turn on the server
// (`status` "queued"), the page says how many are before it, and asks again.
import { api, el } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#4aa3ff", "#ff9f43", "#2ecc71", "#e056fd", "#f8d847", "#ff6b6b"];
const SYMBOL = { blunder: "??", mistake: "?", inaccuracy: "?!" };
const POLL_MS = 1500;
// The plot's margins inside the chart, in pixels: room for the axes' numbers and names.
const MARGIN = { left: 52, right: 14, top: 16, bottom: 38 };
const PERCENTS = [0, 0.25, 0.5, 0.75, 1];
const TICK_SPACE = 40;  // the least pixels between two move numbers on the x axis
// The least pixels between two marks whose symbols are both written (a symbol and a dot high).
const LABEL_SPACE = { across: 16, up: 24 };
const percent = (chance) => `${Math.round(chance * 100)}%`;
// The server analyses a few games at a time; the others wait in the order asked.
const waiting = (before) => `Waiting: ${before} ${before === 1 ? "analysis" : "analyses"} before yours…`;

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

// The chart's height for its width: wide enough to read, never taller than a phone can spare.
const heightFor = (width) => Math.round(Math.min(240, Math.max(170, width * 0.5)));

// The least of 1, 2, 5, 10, 20, 50, ... that is at least `least`.
function roundInterval(least) {
  let scale = 1;
  while (5 * scale < least) scale *= 10;
  return [1, 2, 5].map((m) => m * scale).find((n) => n >= least);
}

// Move numbers for the x axis, 0 to `steps`, at a round interval that leaves at least
// TICK_SPACE pixels between two of them.
function moveTicks(steps, pixels) {
  const interval = roundInterval(steps / Math.max(1, Math.floor(pixels / TICK_SPACE)));
  return Array.from({ length: Math.floor(steps / interval) + 1 }, (_, i) => i * interval);
}

// A seat's line: its chance before each of its moves (at the step before) and after it.
function seatPoints(decisions, x, y) {
  return decisions.flatMap((d) => [`${x(d.number - 1)},${y(d.before)}`, `${x(d.number)},${y(d.after)}`]).join(" ");
}

// `panel`: the section to fill, `list`: the one for the marked moves; `steps`: the replay's
// last step (actions in the game); `names(seat)`; `jump(step)`.
export function analysisPanel(panel, list, { gameId, steps, names, jump }) {
  let result = null;
  let step = 0;
  let nowLine = null;  // the step on screen, on the chart
  let x = null;  // the step's place on the chart's x axis, once drawn
  const button = el("button", { type: "button", class: "primary" }, "Analyse this game");
  const progress = el("p", { class: "small", "aria-live": "polite" });
  const chart = el("div", { class: "analysis-chart" });
  const marks = el("ol", { class: "analysis-marks", "aria-labelledby": "marks-title" });
  panel.replaceChildren(el("h2", {}, "Analysis"), button, progress, chart);
  panel.hidden = false;
  list.replaceChildren(el("h2", { id: "marks-title" }, "Marked moves"), marks);

  async function ask() {
    button.disabled = true;
    button.textContent = "Analysing…";
    try {
      result = await api(`/api/games/${gameId}/analysis`);
    } catch (error) {
      progress.textContent = `The analysis could not be had: ${error.message}`;
      button.disabled = false;
      button.textContent = "Try again";
      return;
    }
    button.textContent = result.status === "queued" ? "Waiting…" : "Analysing…";
    draw();
    if (result.complete) button.remove();
    else setTimeout(ask, POLL_MS);
  }
  button.onclick = ask;
  new ResizeObserver(() => { if (result && chart.clientWidth !== Number(chart.dataset.width)) draw(); }).observe(chart);

  const marked = () => result.decisions.filter((d) => d.mark);
  const seats = () => [...new Set(result.decisions.map((d) => d.seat))].sort();
  const colour = (seat) => COLOURS[seat % COLOURS.length];
  const markWords = (d) => `move ${d.number}, ${names(d.seat)}: ${d.words}, a ${d.mark} ${SYMBOL[d.mark]} (chance ${percent(d.before)} → ${percent(d.after)})`;

  function draw() {
    const done = result.decisions.length;
    progress.textContent = result.complete
      ? `Each decision judged from the deciding player's view: ${done} decisions. Marks by chance lost: ?! 10 points, ? 20, ?? 30.`
      : result.status === "queued" ? waiting(result.position)
        : `Judging decision ${done + 1} of ${result.total ?? "…"}…`;
    const width = chart.clientWidth || 320;
    chart.dataset.width = width;
    chart.replaceChildren(picture(width, heightFor(width)), legend());
    list.hidden = !marked().length;
    marks.replaceChildren(...marked().map((d) => el("li", {}, el("button", {
      type: "button", class: `mark-${d.mark}`, onclick: () => jump(d.number),
    }, `${d.number}. ${names(d.seat)}: ${d.words} ${SYMBOL[d.mark]} ${d.mark} (${percent(d.before)} → ${percent(d.after)})`))));
  }

  // The chart itself: the axes and the lines (a picture only), then the marks (buttons).
  function picture(width, height) {
    const plot = { left: MARGIN.left, right: width - MARGIN.right, top: MARGIN.top, bottom: height - MARGIN.bottom };
    x = (number) => (plot.left + (number / Math.max(1, steps)) * (plot.right - plot.left)).toFixed(1);
    const y = (chance) => (plot.bottom - chance * (plot.bottom - plot.top)).toFixed(1);
    const chosen = seats();
    const node = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "chance-chart",
      role: "group", "aria-labelledby": "chart-title", "aria-describedby": "chart-desc" });
    const lines = svg("g", { "aria-hidden": "true" });
    for (const seat of chosen) {
      const own = result.decisions.filter((d) => d.seat === seat);
      lines.append(svg("polyline", { points: seatPoints(own, x, y), fill: "none", stroke: colour(seat), "stroke-width": 2, "stroke-linejoin": "round" }));
    }
    nowLine = svg("line", { x1: x(step), x2: x(step), y1: plot.top, y2: plot.bottom, class: "now" });
    lines.append(nowLine);
    node.append(
      svg("title", { id: "chart-title" }, "Each player's chance of winning, move by move"),
      svg("desc", { id: "chart-desc" }, `Up: the chance of winning, 0% to 100%, as each player judged it at their own moves; ` +
        `across: the move number, 0 to ${steps}. Lines: ${chosen.map((s) => names(s)).join(", ")}. ` +
        `${marked().length} marked moves, each a button that goes to its step.`),
      axes(plot, x, y, height), lines);
    const labelled = [];  // the marks whose symbols are written above them
    for (const d of marked()) {
      const [cx, cy] = [Number(x(d.number)), Number(y(d.after))];
      const room = labelled.every(([lx, ly]) => Math.abs(cx - lx) >= LABEL_SPACE.across || Math.abs(cy - ly) >= LABEL_SPACE.up);
      if (room) labelled.push([cx, cy]);
      node.append(markButton(d, cx, cy, room));
    }
    node.onclick = (event) => {
      const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(node.getScreenCTM().inverse());
      const share = (at.x - plot.left) / (plot.right - plot.left);
      if (share >= 0 && share <= 1) jump(Math.round(share * steps));
    };
    return node;
  }

  // The y axis in percent and the x axis in move numbers, each with its gridlines and name.
  function axes(plot, x, y, height) {
    const group = svg("g", { class: "axes", "aria-hidden": "true" });
    for (const chance of PERCENTS) {
      group.append(svg("line", { x1: plot.left, x2: plot.right, y1: y(chance), y2: y(chance), class: chance === 0.5 ? "grid even" : "grid" }),
        svg("text", { x: plot.left - 6, y: Number(y(chance)) + 4, "text-anchor": "end", class: "tick y-tick" }, percent(chance)));
    }
    for (const number of moveTicks(steps, plot.right - plot.left)) {
      group.append(svg("line", { x1: x(number), x2: x(number), y1: plot.bottom, y2: plot.bottom + 4, class: "axis" }),
        svg("text", { x: x(number), y: plot.bottom + 17, "text-anchor": "middle", class: "tick x-tick" }, String(number)));
    }
    group.append(svg("line", { x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom, class: "axis" }),
      svg("line", { x1: plot.left, x2: plot.left, y1: plot.top, y2: plot.bottom, class: "axis" }),
      svg("text", { x: (plot.left + plot.right) / 2, y: height - 4, "text-anchor": "middle", class: "axis-name" }, "move"),
      svg("text", { x: 0, y: 0, transform: `translate(12 ${(plot.top + plot.bottom) / 2}) rotate(-90)`, "text-anchor": "middle", class: "axis-name" }, "chance to win"));
    return group;
  }

  // A marked move on the chart: its dot and (where there is room) its symbol, a button (a
  // finger's size) to its step.
  function markButton(d, cx, cy, symbol) {
    const go = (event) => { event.stopPropagation(); jump(d.number); };
    const mark = svg("g", { class: `mark mark-${d.mark}`, role: "button", tabindex: 0, "aria-label": `Go to ${markWords(d)}` });
    mark.append(svg("title", {}, markWords(d)), svg("circle", { cx, cy, r: 12, class: "hit" }),
      svg("circle", { cx, cy, r: 5, class: "dot" }));
    if (symbol) mark.append(svg("text", { x: cx, y: cy - 8, "text-anchor": "middle", class: "mark-symbol" }, SYMBOL[d.mark]));
    mark.addEventListener("click", go);
    mark.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); go(event); } });
    return mark;
  }

  function legend() {
    const kinds = [...new Set(marked().map((d) => d.mark))];
    return el("p", { class: "small chart-legend" },
      ...seats().map((seat) => el("span", { style: `color: ${colour(seat)}` }, `■ ${names(seat)}`)),
      ...kinds.map((kind) => el("span", { class: `chart-key mark-${kind}` }, `● ${SYMBOL[kind]} ${kind}`)));
  }

  return {
    // The judgement of the move that led to `now` (null: none yet, or a step of no decision).
    show(now) {
      step = now;
      if (nowLine) for (const end of ["x1", "x2"]) nowLine.setAttribute(end, x(step));
      const judged = result?.decisions.find((d) => d.number === now);
      if (!judged) return null;
      const verdict = judged.mark ? ` · ${judged.mark} ${SYMBOL[judged.mark]}; best: ${judged.best_words}` : judged.forced ? " · the only move" : "";
      return `${names(judged.seat)}'s chance: ${percent(judged.before)} → ${percent(judged.after)}${verdict}`;
    },
  };
}
