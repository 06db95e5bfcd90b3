// The replay page's analysis (GET /api/games/{id}/analysis): asked for with one button once
// the game is over, then filled in as the server judges each decision. A chart of each
// player's chance of winning (from that player's own view at each of their decisions), the
// step on screen marked on it; the marked moves listed, each a jump to its step; and under
// "This step", the judgement of the move that led there.
import { api, el } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320, HEIGHT = 120;
const COLOURS = ["#4aa3ff", "#ff9f43", "#2ecc71", "#e056fd", "#f8d847", "#ff6b6b"];
const SYMBOL = { blunder: "??", mistake: "?", inaccuracy: "?!" };
const POLL_MS = 1500;
const percent = (chance) => `${Math.round(chance * 100)}%`;

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// `panel`: the section to fill; `steps`: the replay's last step (actions in the game);
// `names(seat)`; `jump(step)`.
export function analysisPanel(panel, { gameId, steps, names, jump }) {
  let result = null;
  let step = 0;
  const button = el("button", { type: "button", class: "primary" }, "Analyse this game");
  const progress = el("p", { class: "small", "aria-live": "polite" });
  const chart = el("div", { class: "analysis-chart" });
  const marks = el("ol", { class: "analysis-marks" });
  panel.replaceChildren(el("h2", {}, "Analysis"), button, progress, chart, marks);
  panel.hidden = false;
  const x = (number) => (number / Math.max(1, steps)) * WIDTH;
  const y = (chance) => HEIGHT - chance * HEIGHT;

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
    draw();
    if (result.complete) button.remove();
    else setTimeout(ask, POLL_MS);
  }
  button.onclick = ask;

  function draw() {
    const done = result.decisions.length;
    progress.textContent = result.complete
      ? `Each decision judged from the deciding player's view: ${done} decisions. Marks by chance lost: ?! 10 points, ? 20, ?? 30.`
      : `Judging decision ${done + 1} of ${result.total ?? "…"}…`;
    const picture = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", class: "chance-chart",
      "aria-label": "Each player's chance of winning over the game" });
    picture.append(svg("line", { x1: 0, x2: WIDTH, y1: y(0.5), y2: y(0.5), class: "even" }));
    const seats = [...new Set(result.decisions.map((d) => d.seat))].sort();
    for (const seat of seats) {
      const own = result.decisions.filter((d) => d.seat === seat);
      const points = own.map((d) => `${x(d.number).toFixed(1)},${y(d.before).toFixed(1)}`).join(" ");
      picture.append(svg("polyline", { points, fill: "none", stroke: COLOURS[seat % COLOURS.length], "stroke-width": 2 }));
    }
    for (const d of result.decisions.filter((d) => d.mark)) {
      const dot = svg("circle", { cx: x(d.number), cy: y(d.before), r: 3.5, class: `mark-${d.mark}` });
      dot.append(svg("title", {}));
      dot.firstChild.textContent = `${d.number}. ${names(d.seat)}: ${d.words} (${d.mark})`;
      picture.append(dot);
    }
    picture.append(svg("line", { x1: x(step), x2: x(step), y1: 0, y2: HEIGHT, class: "now" }));
    picture.onclick = (event) => {
      const box = picture.getBoundingClientRect();
      jump(Math.round(((event.clientX - box.left) / box.width) * steps));
    };
    const legend = el("p", { class: "small chart-legend" }, ...seats.map((seat) =>
      el("span", { style: `color: ${COLOURS[seat % COLOURS.length]}` }, `■ ${names(seat)} `)));
    chart.replaceChildren(picture, legend);
    marks.replaceChildren(...result.decisions.filter((d) => d.mark).map((d) => el("li", {}, el("button", {
      type: "button", class: `mark-${d.mark}`, onclick: () => jump(d.number),
    }, `${d.number}. ${names(d.seat)}: ${d.words} ${SYMBOL[d.mark]} ${d.mark} (${percent(d.before)} → ${percent(d.after)})`))));
  }

  return {
    // The judgement of the move that led to `now` (null: none yet, or a step of no decision).
    show(now) {
      step = now;
      if (result) draw();
      const judged = result?.decisions.find((d) => d.number === now);
      if (!judged) return null;
      const verdict = judged.mark ? ` · ${judged.mark} ${SYMBOL[judged.mark]}; best: ${judged.best_words}` : judged.forced ? " · the only move" : "";
      return `${names(judged.seat)}'s chance: ${percent(judged.before)} → ${percent(judged.after)}${verdict}`;
    },
  };
}
