// Toa Nuva Reconstruct drawn as the table looks: each player's mat with the seven part
// spaces and a drawing of the Toa Nuva being rebuilt as they fill, hands of Game Action cards
// drawn as cards (the opponent's face down, except the cards everyone saw taken), the draw
// pile, the discard pile and the card in play. What each legal action acts on comes from its
// `targets`. Playing is select-then-confirm: a click on a hand card picks it up (looking is
// never playing), then a click on the part it goes to, or on its use in the bar, plays it; a
// part that one card of the hand can fill plays that card in one click.
// The last move is marked: the part just added or removed, the card just played.
import { capital, characterName, el, keyMark, keyOf, tooltips } from "../common.js";
import { svg } from "../pictures.js";
import { cardFrame } from "./cards.js";

const AREA = { "left-leg": "lleg", "right-leg": "rleg", "left-arm": "larm", "right-arm": "rarm",
  head: "head", "kanohi-nuva": "kanohi", tool: "tool" };
// A kind of card (add, remove, stop) as the game's key draws, names and explains it
// (legend.toml, served as the picture book's `legend`, common.js keyOf).
const kindOf = (book, kind) => keyOf(book).byLetter.card[kind];
let selected = null;  // the hand card picked up, waiting for where it goes
const PHONE = matchMedia("(max-width: 760px)");  // style.css's phone

const uses = (ctx, card) => ctx.legal.filter((a) => a.targets?.card === card);

function cardFace(book, id, { onclick, small = false, target = false, actions = [], just = false, from } = {}) {
  const card = book.components.cards[String(id)];
  const parts = card.parts.map((p) => book.components.parts.find((x) => x.id === p).name);
  const kind = kindOf(book, card.kind);
  return cardFrame({
    tag: onclick ? "button" : "div", cls: `face c-${card.colour} k-${card.kind}${small ? " small" : ""}${selected === id ? " selected" : ""}${target ? " target" : ""}${just ? " just" : ""}`,
    // A card that shows parts has its kind's mark beside them; a stop card, none, is its mark.
    number: id, title: parts.length ? parts.join(" · ") : kind.glyph, icon: parts.length ? kind.glyph : "", flip: `card-${id}`,
    attrs: { onclick, "aria-pressed": onclick ? String(selected === id) : null,
      "data-tip": `#${id}: ${kind.name}, ${card.colour}${parts.length ? ` — ${parts.join(", ")}` : ""}. ${kind.means}`,
      dataset: { card: id, actions: actions.join(" "), flipFrom: from } },
  });
}

// The page names seats (display name, "you"); a tutorial's page by their characters.
const seatName = (book, obs, seat, ctx) => (ctx.name ? ctx.name(seat) : characterName(book, obs.players[seat]));

function cardBack(label = "", tip = "A Game Action card, face down") {
  return el("div", { class: "card back", role: "img", "aria-label": "face-down card", "data-tip": tip }, el("span", {}, label));
}

// The part the last move added or removed, on whose mat: {seat, part}, or null.
function lastPart(ctx) {
  const event = (ctx.last || []).find((e) => e.kind === "add" || e.kind === "remove");
  return event ? { seat: event.seat, part: event.part } : null;
}

function mat(book, obs, seat, ctx) {
  const toa = book.components.toa[obs.players[seat]];
  const built = new Set(obs.built[seat]);
  const just = lastPart(ctx);
  const slots = book.components.parts.map((part) => {
    // The part is where the intention is: with a card picked up, that card's use; else the
    // one card of the hand that can go there, played in one click (with several, the click
    // picks up the first and the part waits for a second click, or another card).
    const here = ctx.legal.filter((a) => a.targets?.part === part.id && a.targets?.seat === seat);
    const chosen = selected === null ? (here.length === 1 ? here[0] : null) : here.find((a) => a.targets.card === selected);
    const pick = selected === null && here.length > 1 ? here[0].targets.card : null;
    const onclick = chosen ? () => { selected = null; ctx.act(chosen.id); } : pick !== null ? () => { selected = pick; ctx.act.redraw(); } : null;
    const marked = just && just.seat === seat && just.part === part.id;
    const says = chosen ? chosen.text : pick !== null ? `pick up card #${pick} to play it here (${here.length} cards can)` : "";
    return el(onclick ? "button" : "div", {
      class: `part a-${AREA[part.id]}${built.has(part.id) ? " built" : ""}${onclick ? " target" : ""}${marked ? " just" : ""}`,
      onclick, dataset: { part: part.id, actions: here.map((a) => a.id).join(" ") },
      "aria-label": says || null,
      "data-tip": `${toa.name}'s ${part.name}: ${built.has(part.id) ? "built" : "not built yet"}${says ? ` — click: ${says}` : ""}`,
    }, el("span", {}, part.name));
  });
  return el("div", { class: `mat e-${toa.element}`, "aria-label": `${toa.name}'s mat` },
    el("div", { class: "torso", "data-tip": `${toa.name}: ${built.size} of 7 parts built; the first to build all seven wins` },
      figure(built), el("strong", {}, toa.name), el("span", {}, `${built.size}/7`)),
    ...slots);
}

// Our own drawing of a Toa Nuva, part by part: each part's shape is solid once it is built.
const FIGURE = {
  head: "M10 1h6v5h-6z", "kanohi-nuva": "M9 2h8l-1 3h-6z", tool: "M22 8h2v14h-2z",
  "left-arm": "M3 8h4v9H3z", "right-arm": "M19 8h4v9h-4z", "left-leg": "M8 17h4v9H8z", "right-leg": "M14 17h4v9h-4z",
};
function figure(built) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 26 27");
  svg.setAttribute("class", "toa-figure");
  svg.setAttribute("aria-hidden", "true");
  const shape = (d, on) => {
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", d);
    path.setAttribute("class", on ? "on" : "off");
    svg.append(path);
  };
  shape("M8 7h10v10H8z", true);  // the torso: every Toa has one
  for (const [part, d] of Object.entries(FIGURE)) shape(d, built.has(part));
  return svg;
}

function myHand(book, obs, ctx) {
  // Focusable: on a phone a full hand scrolls sideways, and a keyboard must reach all of it.
  return el("div", { class: "hand mine", tabindex: "0", role: "group", "aria-label": "Your cards" }, obs.hand.map((id) => {
    const all = uses(ctx, id);
    const onclick = all.length ? () => { selected = selected === id ? null : id; ctx.act.redraw(); } : null;
    return cardFace(book, id, { onclick, actions: all.map((a) => a.id) });
  }));
}

// The uses of the picked-up card, each one click; and a way to put it back.
function useBar(ctx) {
  if (selected === null) return null;
  const all = uses(ctx, selected).filter((a) => a.targets.kind !== "trade");
  return el("div", { class: "use-bar" },
    all.map((a) => el("button", { class: "primary", dataset: { actions: a.id }, onclick: () => { selected = null; ctx.act(a.id); } }, a.text)),
    uses(ctx, selected).some((a) => a.targets.kind === "trade") ? el("span", { class: "small" }, "or click a card of its colour in the discard pile to trade") : null,
    el("button", { onclick: () => { selected = null; ctx.act.redraw(); } }, "Put it back"));
}

function theirHand(book, obs, seat) {
  const known = obs.known_in_hands[seat];
  const backs = Array.from({ length: obs.hand_sizes[seat] - known.length }, () => cardBack());
  return el("div", { class: "hand theirs", dataset: { flip: `hand-${seat}` } }, known.map((id) => cardFace(book, id, { small: true })), backs);
}

// A player's place at the table: their name, their mat and (`hand`) their hand; the viewer's
// hand goes to the page's dock (`ctx.mine`) where there is one, their mat stays on the table.
function player(book, obs, seat, ctx, { hand = true } = {}) {
  const turn = obs.current_player === seat;
  const mine = seat === ctx.seat;
  const seatInfo = ctx.seats?.[seat];
  const who = seatName(book, obs, seat, ctx);
  const held = !hand ? null : mine && obs.hand ? myHand(book, obs, ctx) : theirHand(book, obs, seat);
  return el("section", { class: `player${turn ? " to-move" : ""}${mine ? " me" : ""}`, dataset: { seat } },
    el("h3", {}, mine ? "You" : capital(who),
      el("span", { class: "small" }, seatInfo?.kind === "bot" ? ` · bot (${seatInfo.level})` : ""),
      el("span", { class: "small" }, ` · ${obs.hand_sizes[seat]} card${obs.hand_sizes[seat] === 1 ? "" : "s"}`)),
    el("div", { class: "player-row" }, mat(book, obs, seat, ctx), held),
    hand && mine && obs.hand ? useBar(ctx) : null);
}

// What the viewer holds, for the dock: the hand and the picked-up card's uses.
function hand(book, obs, ctx) {
  return el("section", { class: "player me held" },
    el("h3", {}, `Your hand · ${obs.hand.length} card${obs.hand.length === 1 ? "" : "s"}`), myHand(book, obs, ctx), useBar(ctx));
}

function centre(book, obs, ctx) {
  const trades = ctx.legal.filter((a) => a.targets?.kind === "trade");
  const played = (ctx.last || []).find((e) => e.kind === "stop" || e.kind === "play" || e.kind === "trade");
  const justCards = new Set(played ? [played.card, played.stopped, played.gave].filter((c) => c !== undefined) : []);
  const pending = obs.pending;
  const top = obs.discard.at(-1);
  return el("section", { class: "centre" },
    el("div", { class: "pile" }, cardBack(obs.draw_pile_size, `The draw pile: ${obs.draw_pile_size} Game Action cards`), el("small", {}, "draw pile")),
    el("div", { class: "in-play" }, pending
      ? [cardFace(book, pending.card, { just: true, from: `hand-${pending.seat}` }), el("small", {}, `${seatName(book, obs, pending.seat, ctx)} plays it to ${pending.effect} the ${book.components.parts.find((p) => p.id === pending.part).name}`)]
      : el("small", {}, `Turn ${obs.turn}${obs.advanced ? " · advanced" : ""}`)),
    trades.length ? spread(book, obs, ctx, trades) : el("div", { class: "pile discard" },
      top !== undefined ? cardFace(book, top, { small: true, just: justCards.has(top) }) : el("div", { class: "card small empty" }),
      el("small", {}, `discard pile (${obs.discard.length})`)));
}

// The Advanced trade: the discard pile laid out in its place, so every card can be read and
// clicked.
function spread(book, obs, ctx, trades) {
  const cards = obs.discard.map((id) => {
    const move = trades.find((t) => t.targets.take === id && t.targets.card === selected);
    return cardFace(book, id, { small: true, target: Boolean(move), actions: trades.filter((t) => t.targets.take === id).map((t) => t.id),
      onclick: move ? () => { selected = null; ctx.act(move.id); } : null });
  });
  return el("div", { class: "spread", "aria-label": "the discard pile, spread out" }, el("div", { class: "spread-cards" }, cards),
    el("small", {}, `discard pile (${obs.discard.length}) · ${selected === null ? "to trade, pick up a card of your hand, then the card of its colour to take" : "click the card to take"}`));
}

// The How to play page's key (js/rules.js): a card as the hand shows it (colour, kind's mark,
// parts), a part of the mat built or missing, as this table draws them.
const SAMPLE_PARTS = { add: "Left Leg · Tool", remove: "Head · Tool" };
export const keyMarks = {
  card: ({ letter, glyph }) => keyMark(`card face small c-red k-${letter}`,
    SAMPLE_PARTS[letter] ? el("span", { class: "card-kind" }, glyph) : null, el("span", { class: "card-parts" }, SAMPLE_PARTS[letter] || glyph)),
  mat: ({ letter }) => keyMark("mat-part e-fire", el("span", { class: `part${letter === "built" ? " built" : ""}` }, "Head")),
  colour: ({ letter }, book) => keyMark(`card face small c-${letter}`, el("span", { class: "card-kind" }, kindOf(book, "add").glyph)),
};

export function render(root, obs, ctx) {
  const viewer = ctx.seat;
  const bottom = viewer ?? 0;
  const full = { ...ctx, act: Object.assign((id) => ctx.act(id), { redraw: () => render(root, obs, ctx) }) };
  if (selected !== null && (!(obs.hand || []).includes(selected) || !uses(ctx, selected).length)) selected = null;
  tooltips(root);
  // Docked (the page gives `ctx.mine`): on a wide screen your mat and hand together below the
  // table; on a phone only the hand, wrapped, and your mat on the table below the card in play,
  // so that the dock stays short enough to leave the table its room.
  const docked = Boolean(ctx.mine) && Boolean(obs.hand);
  const handOnly = docked && PHONE.matches;
  if (docked) {
    ctx.mine.setAttribute("aria-label", "Your hand");
    tooltips(ctx.mine);
    ctx.mine.replaceChildren(handOnly ? hand(ctx.book, obs, full) : player(ctx.book, obs, bottom, full));
  }
  root.replaceChildren(el("div", { class: "reconstruct" }, player(ctx.book, obs, 1 - bottom, full), centre(ctx.book, obs, full),
    !docked ? player(ctx.book, obs, bottom, full) : handOnly ? player(ctx.book, obs, bottom, full, { hand: false }) : null));
}

// The stop-card window (RECON-STOP), worded from the card in play: whose card, what it does to
// whom, and when it takes effect, cause before effect. `name` is the page's ("you": the viewer).
function pendingWords(obs, name) {
  const pending = obs.pending;
  if (!pending) return null;
  const mine = name(pending.seat) === "you";
  const part = pending.part.replace(/-/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
  const does = pending.effect === "remove" ? (mine ? `your opponent puts back their ${part}` : `you put back your ${part}`)
    : (mine ? `you add your ${part}` : `they add their ${part}`);
  return { who: capital(name(pending.seat)), card: `#${pending.card}`, plays: mine ? "play" : "plays", does };
}

export function windowTitle(obs, name, canAnswer) {
  const words = pendingWords(obs, name);
  if (!words) return null;
  return canAnswer ? `Your decision: stop card ${words.card}?` : `${words.who === "You" ? "Your" : `${words.who}'s`} card ${words.card} takes effect`;
}

export function windowText(canAnswer, seconds, obs, name) {
  const words = pendingWords(obs, name);
  const what = words ? `${words.who} ${words.plays} card ${words.card}: ${words.does}.` : "";
  return canAnswer ? `${what} Play a stop card within ${seconds} s, or it takes effect.`
    : `${what} You hold no stop card: it takes effect in ${seconds} s.`;
}

// The figures of the end: parts built and cards held, per seat.
export function summary(obs) {
  return { turns: obs.turn, figures: [
    { label: "Parts built", values: obs.built.map((parts) => `${parts.length} of 7`) },
    { label: "Cards in hand", values: obs.hand_sizes },
  ] };
}

// The lobby's picture (js/pictures.js): a Toa Nuva's seven parts on its mat, some built, some
// still missing, and a fan of three Game Action cards in their colours and kinds.
export function picture() {
  const part = (x, y, w, h, built) => svg("rect", { x, y, width: w, height: h, rx: 4,
    fill: built ? "#b8321f" : "rgba(0,0,0,.25)", stroke: built ? "#f1c9a8" : "#7b86a0", "stroke-width": 1.5,
    "stroke-dasharray": built ? "" : "4 3" });
  const card = (x, colour, angle, mark, size = 18) => svg("g", { transform: `rotate(${angle} ${x + 14} 92)` },
    svg("rect", { x, y: 44, width: 28, height: 40, rx: 4, fill: colour, stroke: "rgba(255,255,255,.6)" }),
    svg("text", { x: x + 14, y: 70, "text-anchor": "middle", "font-size": size, "font-weight": "bold", fill: "#fff" }, mark));
  return [
    svg("rect", { x: 10, y: 8, width: 84, height: 84, rx: 10, fill: "#2a2f3a", stroke: "#465063" }),
    svg("circle", { cx: 52, cy: 50, r: 13, fill: "#8a2a1a", stroke: "#f2b53a", "stroke-width": 1.5 }),
    part(40, 12, 24, 18, true), part(16, 36, 18, 24, true), part(70, 36, 18, 24, false),
    part(28, 66, 18, 22, true), part(58, 66, 18, 22, false), part(16, 12, 18, 18, false), part(70, 12, 18, 18, true),
    card(104, "#2f6fd6", -12, "+"), card(120, "#2f9e55", 0, "×"), card(136, "#8a4fd0", 12, "STOP", 8),
  ];
}
