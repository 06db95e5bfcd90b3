// Quest for the Masks drawn as the table looks: the island map with its spaces and both Toa
// Masks, and each player's Toa card with its effective skills (bonuses from attached cards
// marked), the attached Great Mask and Turaga, masks won, piles, Missions and hand.
// The map pans and zooms (the two mats together are wider than a phone), its edges carry the
// row letters and column numbers the moves use, and every space, Toa and card has a tooltip.
// Legal moves are clickable on the map (where each leads comes from the action's `targets`);
// a hand card is picked up with one click and played with a second (looking is never
// playing). The viewer's own Toa card, attached cards, Missions and hand are `Your hand`
// (ctx.mine: docked on the page); the space the last move reached is marked.
import { capital, el, keyMark, keyOf, legend, tooltips, zoomFrame } from "../common.js";
import { svg } from "../pictures.js";
import { cardFrame } from "./cards.js";

let selected = null;  // the hand card picked up, waiting for its use to be chosen

const ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

const cellOf = (label) => [ROWS.indexOf(label[0]), Number(label.slice(1)) - 1];
const labelOf = (row, col) => `${ROWS[row]}${col + 1}`;

// What each map symbol is, draws and does: the game's key (legend.toml, served as the picture
// book's `legend`, common.js keyOf), whose space letters are the map file's symbols.
const spaceKey = (book, symbol) => keyOf(book).byLetter.space?.[symbol] || { letter: symbol, glyph: "", means: "" };
// A kind of card as the key names it, without the word "card": "Great Mask Challenge".
const cardKind = (book, kind) => keyOf(book).byLetter.card[kind].name.replace(/ card$/, "");

function spaceTip(book, symbol, label) {
  return `${label}: ${book.components.legend[symbol].name}. ${spaceKey(book, symbol).means}`;
}

function legendRows(book) {
  return Object.entries(book.components.legend).filter(([, s]) => s.kind !== "sea").map(([letter, s]) => {
    const symbol = spaceKey(book, letter);  // drawn as the How to play page draws it (keyMarks)
    return { mark: keyMarks.space(symbol, book), name: `${symbol.glyph ? `${symbol.glyph} · ` : ""}${s.name}`, text: symbol.means };
  }).concat([{ mark: el("span", { class: "legend-mark mcell target" }), name: "Where you can go", text: "Click a highlighted space to move or jump there." },
    { mark: el("span", { class: "legend-mark coord-mark" }, "C5"), name: "Space names", text: "Row letter (A at the North edge) and column number (1 at the West edge): the names the moves use." }]);
}

function mapCells(book, obs, ctx) {
  const map = book.components.maps[obs.map];
  const legend = book.components.legend;
  // label -> the legal actions that lead there: a move or jump of your Toa, or the card
  // picked up (a push of the other Toa, a two-space move) aimed at that space.
  const targets = new Map();
  for (const action of ctx.legal) {
    const { space, card } = action.targets || {};
    if (space && (card === undefined || card === selected)) targets.set(space, [...(targets.get(space) || []), action.id]);
  }
  const reached = new Set((ctx.last || []).map((e) => e.to).filter(Boolean));
  const text = (id) => ctx.legal.find((a) => a.id === id)?.text || id;
  const cells = [el("span", { class: "ruler" })];
  for (let col = 0; col < map.width; col += 1) cells.push(el("span", { class: "ruler" }, col + 1));
  for (let row = 0; row < map.height; row += 1) {
    cells.push(el("span", { class: "ruler" }, ROWS[row]));
    for (let col = 0; col < map.width; col += 1) {
      const symbol = map.symbols[row * map.width + col];
      const space = legend[symbol];
      const label = labelOf(row, col);
      const here = targets.get(label) || [];
      const toa = obs.positions.map((p, seat) => (p === label ? seat : null)).filter((s) => s !== null);
      if (space.kind === "sea") { cells.push(el("span", { class: "mcell k-sea" })); continue; }
      cells.push(el(here.length === 1 ? "button" : "div", {
        class: `mcell k-${space.kind}${space.circles === 2 ? " double" : ""}${here.length ? " target" : ""}${reached.has(label) ? " just" : ""}`,
        "data-tip": `${spaceTip(book, symbol, label)}${here.length ? ` — click: ${text(here[0])}` : ""}${reached.has(label) ? " (the last move ended here)" : ""}`,
        onclick: here.length === 1 ? () => { selected = null; ctx.act(here[0]); } : null, dataset: { actions: here.join(" "), space: label },
        "aria-label": here.length === 1 ? text(here[0]) : null,
      }, el("span", { class: "glyph" }, spaceKey(book, symbol).glyph),
      toa.map((seat) => {
        const name = book.components.toa[obs.players[seat]].name;
        return el("span", { class: `toa-mask t-${obs.players[seat]}`, dataset: { flip: `toa-${seat}`, name }, "data-tip": `${name}'s Toa Mask on ${label}` }, name.slice(0, 2));
      })));
    }
  }
  return cells;
}

function mapView(book, obs, ctx, stage) {
  const map = book.components.maps[obs.map];
  const content = stage.frame.content;
  content.style.gridTemplateColumns = `var(--ruler) repeat(${map.width}, var(--cell))`;
  content.replaceChildren(...mapCells(book, obs, ctx));
  // A laptop sees the whole map at once. A phone shows it at full size (every space a tap
  // target) and follows the action: the space the last move reached while another decides;
  // when you do, both Toa where they fit at full size, else yours (markFarToa points to the
  // other). At once, on the spaces just drawn: the frame keeps it so when its size changes
  // (common.js zoomFrame).
  const reached = (ctx.last || []).map((e) => e.to).filter(Boolean).at(-1);
  const focus = ctx.legal.length || !reached ? obs.positions.join() : reached;
  if (stage.fitted !== obs.map || stage.focus !== focus) {
    const first = stage.fitted !== obs.map;
    stage.fitted = obs.map;
    stage.focus = focus;
    const spaces = focus.split(",").map((name) => content.querySelector(`[data-space="${name}"]`)).filter(Boolean);
    if (window.innerWidth > 760) { if (first) stage.frame.fit(); }
    else if (spaces.length) {
      const own = content.querySelector(`[data-space="${obs.positions[ctx.seat ?? 0]}"]`);
      stage.frame.show(around(fullSize(stage.frame, around(spaces)) || !own ? spaces : [own]));
    }
  }
  markFarToa(stage, obs, ctx);
}

// Whether a part of the map fits the frame at full size (a phone's spaces stay 44 px taps).
const fullSize = (frame, [left, top, right, bottom]) => right - left <= frame.frame.clientWidth && bottom - top <= frame.frame.clientHeight;

// A Toa out of the frame (the two are further apart than a phone shows at full size) is
// marked at the frame's edge, an arrow its way and its name; a tap brings it into view.
const ARROWS = ["→", "↘", "↓", "↙", "←", "↖", "↑", "↗"];
function markFarToa(stage, obs, ctx) {
  const { frame, content, zoom } = stage.frame;
  if (!stage.marking) {  // once per frame: redrawn on every pan and zoom
    stage.marking = () => markFarToa(stage, stage.obs, stage.ctx);
    content.addEventListener("panzoomchange", stage.marking);
  }
  [stage.obs, stage.ctx] = [obs, ctx];
  for (const old of frame.querySelectorAll(":scope > .offmap")) old.remove();
  const scale = zoom.getScale();
  const pan = zoom.getPan();
  for (const mask of content.querySelectorAll(".toa-mask")) {
    const cell = mask.parentElement;
    const [cx, cy] = [cell.offsetLeft + cell.offsetWidth / 2, cell.offsetTop + cell.offsetHeight / 2];
    const [x, y] = [(cx + pan.x) * scale, (cy + pan.y) * scale];
    const [w, h] = [frame.clientWidth, frame.clientHeight];
    if (x >= 0 && x <= w && y >= 0 && y <= h) continue;
    const angle = Math.atan2(y - h / 2, x - w / 2);
    const arrow = ARROWS[(Math.round(angle / (Math.PI / 4)) + 8) % 8];
    const marker = el("button", { class: "offmap no-pan", dataset: { for: mask.dataset.flip },
      "data-tip": `${mask.dataset.tip}, out of the frame: tap to see it`, onclick: () => stage.frame.centre(cx, cy) },
    `${arrow} ${mask.dataset.name}`);
    frame.append(marker);
    const [mw, mh] = [marker.offsetWidth, marker.offsetHeight];
    marker.style.left = `${Math.min(Math.max(x - mw / 2, 4), w - mw - 4)}px`;
    marker.style.top = `${Math.min(Math.max(y - mh / 2, 4), h - mh - 4)}px`;
  }
}

// The part of the map that holds these spaces, with half a space around them.
function around(spaces) {
  const margin = spaces[0].offsetWidth / 2;
  return [Math.min(...spaces.map((s) => s.offsetLeft)) - margin, Math.min(...spaces.map((s) => s.offsetTop)) - margin,
    Math.max(...spaces.map((s) => s.offsetLeft + s.offsetWidth)) + margin, Math.max(...spaces.map((s) => s.offsetTop + s.offsetHeight)) + margin];
}

function cardView(book, number, ctx, { pick = false } = {}) {
  const key = String(number);
  const c = book.components;
  const ids = ctx.legal.filter((a) => a.targets?.card === number);
  const onclick = pick && ids.length ? () => { selected = selected === number ? null : number; ctx.act.redraw(); } : null;
  let title = `#${number}`;
  let text = "";
  let kind = "action";
  if (c.actions[key]) { title = c.actions[key].name; text = c.actions[key].text; }
  else if (c.mask_cards[key]) { title = c.mask_cards[key].name; text = c.mask_cards[key].text; kind = c.mask_cards[key].kind; }
  else if (c.missions[key]) { title = cardKind(book, "mission"); text = c.missions[key].text; kind = "mission"; }
  else if (c.challenges[key]) { title = cardKind(book, "challenge"); text = c.challenges[key].skill; kind = "challenge"; }
  return cardFrame({
    tag: onclick ? "button" : "div", cls: `mcard mk-${kind}${ids.length && pick ? " playable" : ""}${selected === number ? " selected" : ""}`,
    number, title, text, flip: `card-${number}`,
    attrs: { onclick, "aria-pressed": onclick ? String(selected === number) : null, dataset: { actions: ids.map((a) => a.id).join(" ") },
      "data-tip": `#${number} ${title}: ${text}${onclick ? " — click to pick it up, then choose how to play it" : ""}` },
  });
}

// The uses of the picked-up card: each one click (one aimed at a space is also on the map).
function useBar(ctx) {
  if (selected === null) return null;
  const all = ctx.legal.filter((a) => a.targets?.card === selected);
  return el("div", { class: "use-bar" },
    all.map((a) => el("button", { class: "primary", dataset: { actions: a.id }, onclick: () => { selected = null; ctx.act(a.id); } }, a.text)),
    el("button", { onclick: () => { selected = null; ctx.act.redraw(); } }, "Put it back"));
}

function toaCard(book, obs, seat, ctx) {
  const mine = obs.toa[seat];
  const toa = book.components.toa[mine.toa];
  const me = seat === ctx.seat;
  const skills = book.components.skills.map((name, i) => {
    const bonus = mine.skills[i] - toa.skills[i];
    return el("tr", {}, el("td", {}, name), el("td", { class: "num" }, mine.skills[i]),
      el("td", { class: "bonus" }, bonus ? `${bonus > 0 ? "+" : ""}${bonus}` : ""));
  });
  const attached = [mine.mask, mine.turaga].filter(Boolean).map((n) => cardView(book, n, { legal: [] }));
  const missions = mine.missions.map(([n]) => cardView(book, n, { legal: [] }));
  const hand = me && obs.hand ? obs.hand.map((n) => cardView(book, n, ctx, { pick: true }))
    : [...mine.known_in_hand.map((n) => cardView(book, n, { legal: [] })),
       ...Array.from({ length: mine.hand_size - mine.known_in_hand.length }, () => el("div", { class: "mcard back", "data-tip": "A card in this player's hand, face down" }))];
  const who = ctx.name ? ctx.name(seat) : toa.name;
  return el("section", { class: `player masks-player${obs.current_player === seat ? " to-move" : ""}` },
    el("h3", {}, me ? `You · ${toa.name}` : `${capital(who)}${who === toa.name ? "" : ` · ${toa.name}`}`,
      el("span", { class: "small" }, ` · ${mine.masks}/${obs.masks_to_win} Great Masks · at ${obs.positions[seat]}`)),
    el("div", { class: "player-row" },
      el("div", { class: `toa-card e-${toa.element}`, "data-tip": `${toa.name}'s Toa card: the skill scores both Toa compare in a Great Mask Challenge, with bonuses from attached cards in green` }, el("strong", {}, toa.name), el("table", { class: "skills" }, skills)),
      el("div", { class: "attached" }, attached.length ? attached : el("small", {}, "no card attached")),
      missions.length ? el("div", { class: "missions", "aria-label": "Missions to do" }, el("small", {}, `Mission${missions.length === 1 ? "" : "s"} to do`), missions) : null,
      el("div", { class: "piles small" },
        el("div", {}, `Mask pile: ${mine.mask_pile}`), el("div", {}, `Action pile: ${mine.action_pile}`),
        mine.skips ? el("div", {}, `Skips: ${mine.skips}`) : null),
      hand.length ? el("div", { class: "hand" }, hand) : null),
    me ? useBar(ctx) : null);
}

// The How to play page's key (js/rules.js): a space is the map's coloured circle (two rings
// when double) with its glyph, a Toa Mask the round marker with its name's first letters, a
// card a small card of its kind, as this board draws them.
export const keyMarks = {
  space: ({ letter, glyph }, book) => {
    const space = book.components.legend[letter];
    if (!space || space.kind === "sea") return keyMark("sea-mark");
    return keyMark(`mcell k-${space.kind}${space.circles === 2 ? " double" : ""}`, glyph);
  },
  piece: () => keyMark("mcell k-blank", el("span", { class: "toa-mask t-tahu" }, "Ta")),
  card: ({ letter }, book) => keyMark(`mini-card mk-${letter}`, cardKind(book, letter)),
};

export function render(root, obs, ctx) {
  let stage = root.querySelector(":scope > .masks");
  if (!stage) {
    const frame = zoomFrame("mmap");
    stage = el("div", { class: "masks" }, el("div", { class: "them" }),
      el("div", { class: "masks-middle" }, el("div", { class: "board-bar" }, legend("Legend: what the spaces mean", legendRows(ctx.book)), frame.tools),
        frame.frame, el("div", { class: "small turn-line" }), el("div", { class: "challenge" })),
      el("div", { class: "us" }));
    stage.frame = frame;
    root.replaceChildren(stage);
    frame.mount();
  }
  const full = { ...ctx, act: Object.assign((id) => ctx.act(id), { redraw: () => render(root, obs, ctx) }) };
  if (selected !== null && (!(obs.hand || []).includes(selected) || !ctx.legal.some((a) => a.targets?.card === selected))) selected = null;
  tooltips(root);
  const bottom = ctx.seat ?? 0;
  const challenge = obs.challenge;
  mapView(ctx.book, obs, full, stage);
  stage.querySelector(".them").replaceChildren(toaCard(ctx.book, obs, 1 - bottom, full));
  const me = toaCard(ctx.book, obs, bottom, full);
  if (ctx.mine) {
    ctx.mine.setAttribute("aria-label", "Your hand");
    tooltips(ctx.mine);
    ctx.mine.replaceChildren(me);
    stage.querySelector(".us").replaceChildren();
  } else {
    stage.querySelector(".us").replaceChildren(me);
  }
  stage.querySelector(".turn-line").textContent = `Turn ${obs.turn} · challenge pile ${obs.challenge_pile} · mission pile ${obs.mission_pile}`;
  const who = (seat) => (ctx.name ? ctx.name(seat) : ctx.book.components.toa[obs.players[seat]].name);
  stage.querySelector(".challenge").textContent = challenge
    ? `Challenge of ${challenge.skill}: ${challenge.scores.map((score, seat) => `${who(seat)} ${score}`).join(" against ")}`
    : obs.phase === "anytime" ? `${obs.current_player === ctx.seat ? "You" : capital(who(obs.current_player))} may play a Game Action card before the turn passes` : "";
}

// The clock of the window before a turn passes (MASKS-GA-ANY-TIME), which closes by itself
// with no card played: the same wait whether or not you hold a card that can be played now.
export function windowText(canPlay, seconds) {
  return canPlay ? `Play a Game Action card now? The turn passes in ${seconds} s.`
    : `No card of yours can be played now: the turn passes in ${seconds} s.`;
}

// The figures of the end: Great Masks won and Missions done, per seat.
export function summary(obs) {
  return { turns: obs.turn, figures: [
    { label: "Great Masks", values: obs.toa.map((toa) => `${toa.masks} of ${obs.masks_to_win}`) },
    { label: "Missions open", values: obs.toa.map((toa) => toa.missions.length) },
  ] };
}

// The lobby's picture (js/pictures.js): a corner of the island's map, spaces as coloured
// circles (a double one ringed), and Gali's Toa Mask on its way.
export function picture() {
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
