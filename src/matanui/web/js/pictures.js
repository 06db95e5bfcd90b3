// The lobby's picture of each game, drawn in SVG by its board view (its `picture`: our own
// drawing, from the same shapes and colours the board uses, views/icons.js; never a scan or
// photo of the printed game), with these helpers.
import { icon } from "./views/icons.js";

const NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

// An icon of views/icons.js placed at x, y, `size` wide, in `colour`.
export function placed(name, x, y, size, colour) {
  const node = icon(name);
  for (const [key, value] of Object.entries({ x, y, width: size, height: size, color: colour })) node.setAttribute(key, value);
  return node;
}

// The picture of `game` that its board view draws, or none for a view without one;
// decorative (the card names the game).
export function gamePicture(view, game) {
  if (!view.picture) return null;
  return svg("svg", { viewBox: "0 0 160 100", class: `game-picture pic-${game}`, "aria-hidden": "true" }, ...view.picture());
}
