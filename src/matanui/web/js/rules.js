// The How to play page's pictures: each row of the key to the symbols (a cell whose
// data-symbol names its legend entry) gets the mark the game's board
// draws for it, made of the board views' own icons and classes (views/icons.js, the Masks
// map's coloured circles, the Reconstruct cards), so that the page shows what the table shows.
import { el, pictureBook } from "./common.js";
import { icon } from "./views/icons.js";

const mark = (cls, ...children) => el("span", { class: `legend-mark ${cls}`, "aria-hidden": "true" }, ...children);

// Quest for Makuta: a space is a square with its printed icon, a token a round chip.
const MAKUTA_SPACE_ICON = { P: "portal", L: "start", G: "gate", M: "temple", K: "kanohi", T: "turaga", Y: "key", R: "rahi" };
const makuta = {
  space: ({ id, letter }) => {
    const code = id === "joined-portal" ? "P" : letter;
    const name = MAKUTA_SPACE_ICON[code];
    return mark(`kspace i-${code === "." ? "plain" : code === "#" ? "scenery" : code}${id === "joined-portal" ? " joined" : ""}`,
      name ? el("span", { class: "printed" }, icon(name)) : null);
  },
  piece: () => mark("pawn t-tahu", el("span", { class: "pawn-head" }, "T")),
  token: ({ letter }) => mark(`chip tk-${letter}`, icon(letter)),
  die: ({ letter }) => mark(`die d-${letter}`, "6"),
};

// Quest for the Masks: a space is its map's coloured circle (two rings when double), a Toa
// Mask the round marker with its name's first letters, a card a small card of its kind.
const MASKS_CARD_WORD = { challenge: "Challenge", mission: "Mission", mask: "Great Mask", turaga: "Turaga", action: "Game Action" };
const masks = {
  space: ({ letter }, book) => {
    const space = book.components.legend[letter];
    if (!space || space.kind === "sea") return mark("sea-mark");
    return mark(`mcell k-${space.kind}${space.circles === 2 ? " double" : ""}`, letter === "." ? "" : letter[0]);
  },
  piece: () => mark("mcell k-blank", el("span", { class: "toa-mask t-tahu" }, "Ta")),
  card: ({ letter }) => mark(`mini-card mk-${letter}`, MASKS_CARD_WORD[letter] || ""),
};

// Toa Nuva Reconstruct: a card as the hand shows it (colour, kind, parts), a part of the mat
// built or missing.
const RECONSTRUCT_KIND = { add: ["+", "Left Leg · Tool"], remove: ["−", "Head · Tool"], stop: ["⊘", "STOP"] };
const reconstruct = {
  card: ({ letter }) => {
    const [kind, parts] = RECONSTRUCT_KIND[letter];
    return mark(`card face small c-red k-${letter}`, el("span", { class: "card-kind" }, kind), el("span", { class: "card-parts" }, parts));
  },
  mat: ({ letter }) => mark(`mat-part e-fire`, el("span", { class: `part${letter === "built" ? " built" : ""}` }, "Head")),
  colour: ({ letter }) => mark(`card face small c-${letter}`, el("span", { class: "card-kind" }, "+")),
};

const DRAWINGS = { makuta, masks, reconstruct };

async function drawKey() {
  const main = document.querySelector("main.rules[data-game]");
  if (!main) return;
  const game = main.dataset.game;
  const drawings = DRAWINGS[game];
  if (!drawings) return;
  const book = await pictureBook(game);
  const symbols = Object.fromEntries(book.legend.map((s) => [s.id, s]));
  for (const cell of main.querySelectorAll(".key-picture[data-symbol]")) {
    const symbol = symbols[cell.dataset.symbol];
    const draw = symbol && drawings[symbol.group];
    if (draw) cell.replaceChildren(draw(symbol, book));
  }
}

drawKey();
