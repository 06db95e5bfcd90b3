// Quest for the Masks drawn as the table looks: the island map with its spaces and both Toa
// Masks, and each player's Toa card with its effective skills (bonuses from attached cards
// marked), the attached Great Mask and Turaga, masks won, piles, Missions and hand.
// Legal moves are clickable on the map; hand cards play their action.
import { el } from "../common.js";

const DIRS = { N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1] };
const ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

const cellOf = (label) => [ROWS.indexOf(label[0]), Number(label.slice(1)) - 1];
const labelOf = (row, col) => `${ROWS[row]}${col + 1}`;

function mapView(book, obs, ctx) {
  const map = book.components.maps[obs.map];
  const legend = book.components.legend;
  const ids = ctx.legal.map((a) => a.id);
  const targets = new Map();  // label -> action ids that lead there
  const mine = ctx.seat !== null ? obs.positions[ctx.seat] : null;
  for (const id of ids) {
    const [kind, arg] = id.split(":");
    let label = null;
    if (kind === "move" && mine && DIRS[arg]) {
      const [r, c] = cellOf(obs.positions[obs.current_player] || mine);
      label = labelOf(r + DIRS[arg][0], c + DIRS[arg][1]);
    } else if (kind === "jump") label = arg;
    if (label) targets.set(label, [...(targets.get(label) || []), id]);
  }
  const cells = [];
  for (let row = 0; row < map.height; row += 1) {
    for (let col = 0; col < map.width; col += 1) {
      const symbol = map.symbols[row * map.width + col];
      const space = legend[symbol];
      const label = labelOf(row, col);
      const here = targets.get(label) || [];
      const toa = obs.positions.map((p, seat) => (p === label ? seat : null)).filter((s) => s !== null);
      cells.push(el("button", {
        class: `mcell k-${space.kind}${space.circles === 2 ? " double" : ""}${here.length ? " target" : ""}`,
        title: `${label}: ${space.name}`, disabled: here.length !== 1,
        onclick: here.length === 1 ? () => ctx.act(here[0]) : null, dataset: { actions: here.join(" ") },
      }, space.kind === "sea" ? "" : el("span", { class: "glyph" }, symbol === "." ? "" : symbol[0]),
      toa.map((seat) => el("span", { class: `toa-mask t-${obs.players[seat]}`, title: book.components.toa[obs.players[seat]].name },
        book.components.toa[obs.players[seat]].name.slice(0, 2)))));
    }
  }
  return el("div", { class: "mmap", style: `grid-template-columns: repeat(${map.width}, 1fr)` }, cells);
}

function cardView(book, number, ctx) {
  const key = String(number);
  const c = book.components;
  const ids = ctx.legal.map((a) => a.id).filter((id) => id.split(":")[1] === key);
  const onclick = ids.length === 1 ? () => ctx.act(ids[0]) : null;
  let title = `#${number}`;
  let text = "";
  let kind = "action";
  if (c.actions[key]) { title = c.actions[key].name; text = c.actions[key].text; }
  else if (c.mask_cards[key]) { title = c.mask_cards[key].name; text = c.mask_cards[key].text; kind = c.mask_cards[key].kind; }
  else if (c.missions[key]) { title = "Mission"; text = c.missions[key].text; kind = "mission"; }
  else if (c.challenges[key]) { title = "Challenge"; text = c.challenges[key].skill; kind = "challenge"; }
  return el("button", { class: `mcard mk-${kind}${ids.length ? " playable" : ""}`, disabled: !onclick, onclick,
    dataset: { actions: ids.join(" ") }, title: text },
  el("span", { class: "card-no" }, `#${number}`), el("strong", {}, title), el("small", {}, text));
}

function toaCard(book, obs, seat, ctx) {
  const mine = obs.toa[seat];
  const toa = book.components.toa[mine.toa];
  const skills = book.components.skills.map((name, i) => {
    const bonus = mine.skills[i] - toa.skills[i];
    return el("tr", {}, el("td", {}, name), el("td", { class: "num" }, mine.skills[i]),
      el("td", { class: "bonus" }, bonus ? `${bonus > 0 ? "+" : ""}${bonus}` : ""));
  });
  const attached = [mine.mask, mine.turaga].filter(Boolean).map((n) => cardView(book, n, { legal: [] }));
  const you = seat === ctx.seat ? " (you)" : "";
  const hand = seat === ctx.seat && obs.hand ? obs.hand.map((n) => cardView(book, n, ctx))
    : [...mine.known_in_hand.map((n) => cardView(book, n, { legal: [] })),
       ...Array.from({ length: mine.hand_size - mine.known_in_hand.length }, () => el("div", { class: "mcard back" }))];
  return el("section", { class: `player masks-player${obs.current_player === seat ? " to-move" : ""}` },
    el("h3", {}, `Player ${seat + 1}${you} · ${toa.name}`,
      el("span", { class: "small" }, ` · ${mine.masks}/${obs.masks_to_win} Great Masks · at ${obs.positions[seat]}`)),
    el("div", { class: "player-row" },
      el("div", { class: `toa-card e-${toa.element}` }, el("strong", {}, toa.name), el("table", { class: "skills" }, skills)),
      el("div", { class: "attached" }, attached.length ? attached : el("small", {}, "no card attached")),
      el("div", { class: "piles small" },
        el("div", {}, `Mask pile: ${mine.mask_pile}`), el("div", {}, `Action pile: ${mine.action_pile}`),
        el("div", {}, `Missions: ${mine.missions.length}`), mine.skips ? el("div", {}, `Skips: ${mine.skips}`) : null)),
    el("div", { class: "hand" }, hand));
}

export function render(root, obs, ctx) {
  const bottom = ctx.seat ?? 0;
  const challenge = obs.challenge;
  root.replaceChildren(el("div", { class: "masks" },
    toaCard(ctx.book, obs, 1 - bottom, ctx),
    el("div", { class: "masks-middle" }, mapView(ctx.book, obs, ctx),
      el("div", { class: "small" }, `Turn ${obs.turn} · challenge pile ${obs.challenge_pile} · mission pile ${obs.mission_pile}`),
      challenge ? el("div", { class: "challenge" }, `Challenge of ${challenge.skill}: ${challenge.scores.join(" vs ")}`) : null),
    toaCard(ctx.book, obs, bottom, ctx)));
}
