// The lobby's picture of each game, drawn here in SVG from the same shapes and colours the
// boards use (views/icons.js, the Masks map's circles, the Reconstruct mat): our own
// drawings, never a scan or photo of the printed games.
import { icon } from "./views/icons.js";

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

// An icon of views/icons.js placed at x, y, `size` wide, in `colour`.
function placed(name, x, y, size, colour) {
  const node = icon(name);
  for (const [key, value] of Object.entries({ x, y, width: size, height: size, color: colour })) node.setAttribute(key, value);
  return node;
}

// Toa Nuva Reconstruct: a Toa Nuva's seven parts on its mat, some built, some still missing,
// and a fan of three Game Action cards in their colours.
function reconstruct() {
  const part = (x, y, w, h, built) => svg("rect", { x, y, width: w, height: h, rx: 4,
    fill: built ? "#b8321f" : "rgba(0,0,0,.25)", stroke: built ? "#f1c9a8" : "#7b86a0", "stroke-width": 1.5,
    "stroke-dasharray": built ? "" : "4 3" });
  const card = (x, colour, angle, mark) => svg("g", { transform: `rotate(${angle} ${x + 14} 92)` },
    svg("rect", { x, y: 44, width: 28, height: 40, rx: 4, fill: colour, stroke: "rgba(255,255,255,.6)" }),
    svg("text", { x: x + 14, y: 70, "text-anchor": "middle", "font-size": 18, "font-weight": "bold", fill: "#fff" }, mark));
  return [
    svg("rect", { x: 10, y: 8, width: 84, height: 84, rx: 10, fill: "#2a2f3a", stroke: "#465063" }),
    svg("circle", { cx: 52, cy: 50, r: 13, fill: "#8a2a1a", stroke: "#f2b53a", "stroke-width": 1.5 }),
    part(40, 12, 24, 18, true), part(16, 36, 18, 24, true), part(70, 36, 18, 24, false),
    part(28, 66, 18, 22, true), part(58, 66, 18, 22, false), part(16, 12, 18, 18, false), part(70, 12, 18, 18, true),
    card(104, "#2f6fd6", -12, "+"), card(120, "#2f9e55", 0, "−"), card(136, "#8a4fd0", 12, "⊘"),
  ];
}

// Quest for the Masks: a corner of the island's map, spaces as coloured circles (a double one
// ringed), and Gali's Toa Mask on its way.
function masks() {
  const rows = ["..C.G", ".M.P.", "G..CC", ".G.M."];
  const fill = { ".": "#c9b98f", M: "#7a3fc0", C: "#b8321f", G: "#1f7a3f", P: "#7fdbe8" };
  const cells = [];
  rows.forEach((row, r) => [...row].forEach((symbol, c) => {
    const cx = 22 + c * 29 + (r % 2) * 6;
    const cy = 16 + r * 23;
    cells.push(svg("circle", { cx, cy, r: 10, fill: fill[symbol] }));
    if (symbol === "C" && c === 4) cells.push(svg("circle", { cx, cy, r: 7, fill: "none", stroke: "#fff", "stroke-width": 1.5 }));
  }));
  cells.push(svg("circle", { cx: 57, cy: 62, r: 11, fill: "#2456b0", stroke: "#fff", "stroke-width": 2 }),
    svg("text", { x: 57, y: 66, "text-anchor": "middle", "font-size": 10, "font-weight": "bold", fill: "#fff" }, "Ga"));
  return cells;
}

// Quest for Makuta: boards of square spaces laid portal to portal, Toa Landing's star, a key
// and a Kanohi to collect, and Makuta's temple waiting beyond.
function makuta() {
  const square = (x, y, colour = "#d9cfa8") => svg("rect", { x, y, width: 16, height: 16, rx: 2, fill: colour, stroke: "rgba(0,0,0,.35)" });
  const board = (x0, y0) => [0, 1, 2, 3].flatMap((r) => [0, 1, 2, 3].map((c) => square(x0 + c * 17, y0 + r * 17)));
  return [
    ...board(8, 14), ...board(84, 14),
    square(59, 48, "#8fd9e4"), square(84, 48, "#8fd9e4"),
    placed("portal", 61, 50, 12, "#0f5560"), placed("portal", 86, 50, 12, "#0f5560"),
    svg("rect", { x: 8, y: 14, width: 33, height: 33, rx: 2, fill: "#f2d36b" }),
    placed("start", 14, 20, 21, "#7a5a00"),
    placed("key", 27, 66, 14, "#5a6a00"), placed("kanohi", 44, 32, 14, "#8a4a00"),
    placed("rahi", 103, 32, 14, "#8a1010"),
    svg("rect", { x: 118, y: 48, width: 33, height: 33, rx: 2, fill: "#3a0505" }),
    placed("temple", 121, 51, 27, "#ff8a7a"),
  ];
}

const SCENES = { reconstruct, masks, makuta };

// The picture of `game`, or none for a game without one; decorative (the card names the game).
export function gamePicture(game) {
  const scene = SCENES[game];
  if (!scene) return null;
  return svg("svg", { viewBox: "0 0 160 100", class: `game-picture pic-${game}`, "aria-hidden": "true" }, ...scene());
}
