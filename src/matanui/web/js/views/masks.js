// Quest for the Masks drawn as the table looks: the island map with its spaces and both Toa
// Masks, and each player's Toa card with its effective skills (bonuses from attached cards
// marked), the attached Great Mask and Turaga, masks won, piles, Missions and hand.
// The map pans and zooms (the two mats together are wider than a phone), its edges carry the
// row letters and column numbers the moves use, and every space, Toa and card has a tooltip.
// Legal moves are clickable on the map; hand cards play their action.
import { el, legend, tooltips, zoomFrame } from "../common.js";

const DIRS = { N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1] };
const ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

const cellOf = (label) => [ROWS.indexOf(label[0]), Number(label.slice(1)) - 1];
const labelOf = (row, col) => `${ROWS[row]}${col + 1}`;

// What each kind of space does, in the rulebook's words (the map file's legend names them).
const DOES = {
  blank: "Nothing happens here.",
  west_start: "West Start Space; after the start of the game it is a blank space.",
  east_start: "East Start Space; after the start of the game it is a blank space.",
  mission: "Enter it and your Toa must accept a new Mission.",
  challenge: "Enter it and your Toa competes in a Great Mask Challenge.",
  game_action: "Enter it and you draw a Game Action card.",
  portal: "From a Portal your Toa may jump to any other Portal.",
};
const DOUBLE = " Two circles: the result is doubled (two cards, or two challenges).";

function spaceTip(space, label) {
  return `${label}: ${space.name}. ${DOES[space.kind] || ""}${space.circles === 2 ? DOUBLE : ""}`;
}

function legendRows(book) {
  return Object.entries(book.components.legend).filter(([, s]) => s.kind !== "sea").map(([symbol, s]) => ({
    mark: el("span", { class: `legend-mark mcell k-${s.kind}${s.circles === 2 ? " double" : ""}` }, symbol === "." ? "" : symbol[0]),
    name: `${symbol === "." ? "" : `${symbol[0]} · `}${s.name}`, text: `${DOES[s.kind] || ""}${s.circles === 2 ? DOUBLE : ""}`,
  })).concat([{ mark: el("span", { class: "legend-mark mcell target" }), name: "Where you can go", text: "Click a highlighted space to move or jump there." },
    { mark: el("span", { class: "legend-mark coord-mark" }, "C5"), name: "Space names", text: "Row letter (A at the North edge) and column number (1 at the West edge): the names the moves use." }]);
}

function mapCells(book, obs, ctx) {
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
        class: `mcell k-${space.kind}${space.circles === 2 ? " double" : ""}${here.length ? " target" : ""}`,
        "data-tip": `${spaceTip(space, label)}${here.length ? ` — click: ${text(here[0])}` : ""}`,
        onclick: here.length === 1 ? () => ctx.act(here[0]) : null, dataset: { actions: here.join(" "), space: label },
        "aria-label": here.length === 1 ? text(here[0]) : null,
      }, el("span", { class: "glyph" }, symbol === "." ? "" : symbol[0]),
      toa.map((seat) => {
        const name = book.components.toa[obs.players[seat]].name;
        return el("span", { class: `toa-mask t-${obs.players[seat]}`, "data-tip": `${name}'s Toa Mask (Player ${seat + 1}) on ${label}` }, name.slice(0, 2));
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
  if (stage.fitted !== obs.map) {
    stage.fitted = obs.map;
    // A laptop sees the whole map at once; a phone starts at full size around its own Toa.
    const own = content.querySelector(`[data-space="${obs.positions[ctx.seat ?? 0]}"]`);
    requestAnimationFrame(() => {
      if (window.innerWidth > 760) stage.frame.fit();
      else if (own) stage.frame.centre(own.offsetLeft + own.offsetWidth / 2, own.offsetTop + own.offsetHeight / 2);
    });
  }
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
  return el(onclick ? "button" : "div", { class: `mcard mk-${kind}${ids.length ? " playable" : ""}`, onclick,
    dataset: { actions: ids.join(" ") }, "data-tip": `#${number} ${title}: ${text}${onclick ? " — click to play it" : ""}` },
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
       ...Array.from({ length: mine.hand_size - mine.known_in_hand.length }, () => el("div", { class: "mcard back", "data-tip": "A card in this player's hand, face down" }))];
  return el("section", { class: `player masks-player${obs.current_player === seat ? " to-move" : ""}` },
    el("h3", {}, `Player ${seat + 1}${you} · ${toa.name}`,
      el("span", { class: "small" }, ` · ${mine.masks}/${obs.masks_to_win} Great Masks · at ${obs.positions[seat]}`)),
    el("div", { class: "player-row" },
      el("div", { class: `toa-card e-${toa.element}`, "data-tip": `${toa.name}'s Toa card: the skill numbers a challenge adds to the die, with bonuses from attached cards in green` }, el("strong", {}, toa.name), el("table", { class: "skills" }, skills)),
      el("div", { class: "attached" }, attached.length ? attached : el("small", {}, "no card attached")),
      el("div", { class: "piles small" },
        el("div", {}, `Mask pile: ${mine.mask_pile}`), el("div", {}, `Action pile: ${mine.action_pile}`),
        el("div", {}, `Missions: ${mine.missions.length}`), mine.skips ? el("div", {}, `Skips: ${mine.skips}`) : null)),
    el("div", { class: "hand" }, hand));
}

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
  tooltips(root);
  const bottom = ctx.seat ?? 0;
  const challenge = obs.challenge;
  mapView(ctx.book, obs, ctx, stage);
  stage.querySelector(".them").replaceChildren(toaCard(ctx.book, obs, 1 - bottom, ctx));
  stage.querySelector(".us").replaceChildren(toaCard(ctx.book, obs, bottom, ctx));
  stage.querySelector(".turn-line").textContent = `Turn ${obs.turn} · challenge pile ${obs.challenge_pile} · mission pile ${obs.mission_pile}`;
  stage.querySelector(".challenge").textContent = challenge ? `Challenge of ${challenge.skill}: ${challenge.scores.join(" vs ")}` : "";
}
