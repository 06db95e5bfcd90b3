// Cards drawn as cards, one way for both card games: a frame in the card's colour, its number
// in the corner, a drawn Kanohi silhouette (our own drawing, the icon set's mask), its kind
// and its words, readable. `flip` names the card for the moves that play out (common.js flip).
import { el } from "../common.js";
import { icon } from "./icons.js";

export function cardFrame({ tag = "div", cls = "", number, title, text = "", icon: mark = "", flip, attrs = {} }) {
  return el(tag, { ...attrs, class: `card ${cls}`, dataset: { ...(attrs.dataset || {}), flip } },
    el("span", { class: "card-no" }, `#${number}`),
    el("span", { class: "card-art" }, icon("kanohi"), mark ? el("span", { class: "card-kind" }, mark) : null),
    el("span", { class: "card-parts" }, title),
    text ? el("small", { class: "card-text" }, text) : null);
}
