// The fallback board for a game without its own view: the observation, readable.
import { el } from "../common.js";

export function render(root, obs) {
  root.replaceChildren(el("pre", { class: "plain-obs" }, JSON.stringify(obs, null, 1)));
}
