// Toa Nuva Reconstruct drawn as the table looks: each player's mat with the seven part
// spaces (filled as the Toa is built), hands of coloured Game Action cards (the opponent's
// face down, except the cards everyone saw taken), the draw pile, the discard pile and the
// card in play. Legal actions are clickable: a card in the hand, then the space it goes to.
import { el, tooltips } from "../common.js";

const AREA = { "left-leg": "lleg", "right-leg": "rleg", "left-arm": "larm", "right-arm": "rarm",
  head: "head", "kanohi-nuva": "kanohi", tool: "tool" };
const KIND_ICON = { add: "+", remove: "−", stop: "⊘" };
const KIND_WORD = { add: "add", remove: "remove", stop: "stop" };
const KIND_DOES = {
  add: "Play it to add one of its parts, in its colour, to your Toa.",
  remove: "Play it to take one of its parts off your opponent's Toa.",
  stop: "Play it at once when your opponent plays a card: that card does nothing.",
};
let selected = null;  // the hand card chosen first, when it has several uses

function parse(id) {
  const [kind, a, b] = id.split(":");
  return { kind, card: a === undefined ? null : Number(a), second: b };
}

function cardFace(book, id, { actions = [], onclick, small = false, target = false } = {}) {
  const card = book.components.cards[String(id)];
  const parts = card.parts.map((p) => book.components.parts.find((x) => x.id === p).name);
  return el("button", {
    class: `card face c-${card.colour} k-${card.kind}${small ? " small" : ""}${selected === id ? " selected" : ""}${target ? " target" : ""}`,
    disabled: !onclick, onclick, "data-tip": `#${id}: ${card.colour} ${KIND_WORD[card.kind]} card${parts.length ? ` — ${parts.join(", ")}` : ""}. ${KIND_DOES[card.kind]}`,
    dataset: { card: id, actions: actions.join(" ") },
  },
  el("span", { class: "card-no" }, `#${id}`),
  el("span", { class: "card-kind" }, KIND_ICON[card.kind]),
  el("span", { class: "card-parts" }, card.kind === "stop" ? "STOP" : parts.join(" · ")));
}

function cardBack(label = "", tip = "A Game Action card, face down") {
  return el("div", { class: "card back", role: "img", "aria-label": "face-down card", "data-tip": tip }, el("span", {}, label));
}

function mat(book, obs, seat, { legal, act, mine }) {
  const toa = book.components.toa[obs.players[seat]];
  const built = new Set(obs.built[seat]);
  const slots = book.components.parts.map((part) => {
    const uses = legal.filter((a) => {
      const p = parse(a.id);
      return (p.kind === (mine ? "add" : "remove")) && p.second === part.id;
    }).map((a) => a.id);
    const here = uses.find((id) => parse(id).card === selected);
    return el("button", {
      class: `part a-${AREA[part.id]}${built.has(part.id) ? " built" : ""}${here ? " target" : ""}`,
      disabled: !here, onclick: here ? () => { selected = null; act(here); } : null,
      dataset: { part: part.id, actions: uses.join(" ") },
      "data-tip": `${toa.name}'s ${part.name}: ${built.has(part.id) ? "built" : "not built yet"}${here ? " — click to play the chosen card here" : ""}`,
    }, el("span", {}, part.name));
  });
  return el("div", { class: `mat e-${toa.element}`, "aria-label": `${toa.name}'s mat` },
    el("div", { class: "torso", "data-tip": `${toa.name}: ${built.size} of 7 parts built; the first to build all seven wins` }, el("strong", {}, toa.name), el("span", {}, `${built.size}/7`)),
    ...slots);
}

function hand(book, obs, seat, { legal, act, viewer }) {
  if (seat === viewer && obs.hand) {
    return el("div", { class: "hand mine" }, obs.hand.map((id) => {
      const uses = legal.map((a) => a.id).filter((a) => parse(a).card === id && parse(a).kind !== "trade");
      const trades = legal.map((a) => a.id).filter((a) => parse(a).kind === "trade" && parse(a).card === id);
      const all = uses.concat(trades);
      const onclick = all.length ? () => {
        if (all.length === 1) { selected = null; act(all[0]); } else { selected = selected === id ? null : id; act.redraw(); }
      } : null;
      return cardFace(book, id, { actions: all, onclick });
    }));
  }
  const known = obs.known_in_hands[seat];
  const backs = Array.from({ length: obs.hand_sizes[seat] - known.length }, () => cardBack());
  return el("div", { class: "hand theirs" }, known.map((id) => cardFace(book, id, { small: true })), backs);
}

function player(book, obs, seat, ctx) {
  const turn = obs.current_player === seat;
  const you = seat === ctx.viewer ? " (you)" : "";
  const seatInfo = ctx.seats?.[seat];
  const who = seatInfo?.kind === "bot" ? ` · bot (${seatInfo.level})` : "";
  return el("section", { class: `player${turn ? " to-move" : ""}${seat === ctx.viewer ? " me" : ""}`, dataset: { seat } },
    el("h3", {}, `Player ${seat + 1}${you}`, el("span", { class: "small" }, who),
      el("span", { class: "small" }, ` · ${obs.hand_sizes[seat]} card${obs.hand_sizes[seat] === 1 ? "" : "s"}`)),
    el("div", { class: "player-row" },
      mat(book, obs, seat, { legal: ctx.legal, act: ctx.act, mine: seat === ctx.viewer }),
      hand(book, obs, seat, ctx)));
}

function centre(book, obs, ctx) {
  const trades = ctx.legal.map((a) => a.id).filter((a) => parse(a).kind === "trade");
  const discard = obs.discard.slice(-8).map((id) => {
    const move = trades.find((t) => Number(parse(t).second) === id && parse(t).card === selected);
    return cardFace(book, id, { small: true, target: Boolean(move), actions: trades.filter((t) => Number(parse(t).second) === id),
      onclick: move ? () => { selected = null; ctx.act(move); } : null });
  });
  const pending = obs.pending;
  return el("section", { class: "centre" },
    el("div", { class: "pile" }, cardBack(obs.draw_pile_size, `The draw pile: ${obs.draw_pile_size} Game Action cards`), el("small", {}, "draw pile")),
    el("div", { class: "in-play" }, pending
      ? [cardFace(book, pending.card), el("small", {}, `Player ${pending.seat + 1} plays it to ${pending.effect} the ${book.components.parts.find((p) => p.id === pending.part).name}`)]
      : el("small", {}, `Turn ${obs.turn}${obs.advanced ? " · advanced" : ""}`)),
    el("div", { class: "pile discard" }, el("div", { class: "fan" }, discard.length ? discard : el("div", { class: "card empty" })),
      el("small", {}, `discard pile (${obs.discard.length})`)));
}

export function render(root, obs, ctx) {
  const viewer = ctx.seat;
  const bottom = viewer ?? 0;
  const act = Object.assign((id) => ctx.act(id), { redraw: () => render(root, obs, ctx) });
  if (selected !== null && !(obs.hand || []).includes(selected)) selected = null;
  const full = { ...ctx, act, viewer };
  tooltips(root);
  root.replaceChildren(el("div", { class: "reconstruct" },
    player(ctx.book, obs, 1 - bottom, full),
    centre(ctx.book, obs, full),
    player(ctx.book, obs, bottom, full)));
}
