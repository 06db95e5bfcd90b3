// Quest for Makuta: the island grows board by board. Each placed board is drawn in its turn
// and place; spaces show their printed icon, the tokens lying on them (face down as the seat
// sees them), Rahi, locks and the Toa pawns. Collector cards, dice and the bags sit beside.
// Spaces a legal move leads to are clickable.
import { el } from "../common.js";

const DIRS = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const ICON = { ".": "", P: "◯", L: "★", G: "▲", K: "K", T: "T", Y: "◆", R: "R" };
const SQUARE = 26;

function spaces(book, obs) {
  const list = [];
  const at = new Map();  // "x,y" square -> space name
  for (const [boardId, rot, x, y] of obs.boards) {
    const shape = book.components.boards[boardId][rot];
    shape.cells.forEach((squares, i) => {
      const icon = shape.icons[i];
      const name = icon === "L" ? "start" : `${x + squares[0][0]},${y + squares[0][1]}`;
      const abs = squares.map(([cx, cy]) => [x + cx, y + cy]);
      for (const [sx, sy] of abs) at.set(`${sx},${sy}`, name);
      list.push({ name, icon, squares: abs, board: boardId });
    });
    for (const [tx, ty] of shape.temple) list.push({ name: "temple", icon: "M", squares: [[x + tx, y + ty]], board: boardId });
  }
  return { list, at };
}

function targetsOf(obs, ctx, at) {
  const targets = new Map();
  const seat = obs.current_player;
  for (const { id } of ctx.legal) {
    const [kind, arg] = id.split(":");
    let name = null;
    if ((kind === "to" || kind === "put") && arg) name = arg;
    else if (kind === "move" && DIRS[arg] && seat !== null) {
      const from = obs.pawns[seat];
      const [px, py] = from === "start" ? [NaN, NaN] : from.split(",").map(Number);
      name = at.get(`${px + DIRS[arg][0]},${py + DIRS[arg][1]}`) || null;
    }
    if (name) targets.set(name, [...(targets.get(name) || []), id]);
  }
  return targets;
}

function islandView(book, obs, ctx) {
  const { list, at } = spaces(book, obs);
  const xs = list.flatMap((s) => s.squares.map((q) => q[0]));
  const ys = list.flatMap((s) => s.squares.map((q) => q[1]));
  const [minX, minY] = [Math.min(...xs), Math.min(...ys)];
  const width = (Math.max(...xs) - minX + 1) * SQUARE;
  const height = (Math.max(...ys) - minY + 1) * SQUARE;
  const targets = targetsOf(obs, ctx, at);
  const nodes = [];
  for (const boardRect of obs.boards) {
    const size = book.components.boards[boardRect[0]][boardRect[1]].size;
    nodes.push(el("div", { class: `kboard b-${boardRect[0].split("-")[0]}`, title: boardRect[0],
      style: `left:${(boardRect[2] - minX) * SQUARE}px;top:${(boardRect[3] - minY) * SQUARE}px;width:${size * SQUARE}px;height:${size * SQUARE}px` }));
  }
  for (const space of list) {
    const here = targets.get(space.name) || [];
    const pawns = obs.pawns.map((p, seat) => (p === space.name ? seat : null)).filter((s) => s !== null);
    const tokens = obs.tokens[space.name] || [];
    const rahi = obs.rahi[space.name];
    const lock = obs.locks[space.name];
    space.squares.forEach(([sx, sy], index) => {
      const main = index === Math.floor(space.squares.length / 2);
      nodes.push(el("button", {
        class: `kspace i-${space.icon === "." ? "plain" : space.icon}${here.length ? " target" : ""}`,
        style: `left:${(sx - minX) * SQUARE}px;top:${(sy - minY) * SQUARE}px`,
        title: `${space.name}${tokens.length ? ` · ${tokens.join(", ")}` : ""}${rahi ? ` · ${rahi}` : ""}`,
        disabled: here.length !== 1, onclick: here.length === 1 ? () => ctx.act(here[0]) : null,
        dataset: { actions: here.join(" ") },
      }, main ? [
        pawns.length ? pawns.map((seat) => el("span", { class: `pawn t-${obs.players[seat]}` }, book.components.toa[obs.players[seat]].name[0]))
          : rahi ? el("span", { class: "rahi" }, "R")
            : tokens.length ? el("span", { class: "token" }, tokens[0][0].toUpperCase())
              : lock !== undefined ? el("span", { class: "lock" }, "L") : ICON[space.icon] ?? space.icon,
      ] : []));
    });
  }
  return el("div", { class: "island-wrap" }, el("div", { class: "island", style: `width:${width}px;height:${height}px` }, nodes));
}

function collector(book, obs, seat, ctx) {
  const cards = obs.cards[seat];
  const toa = book.components.toa[obs.players[seat]];
  const row = (kind) => el("div", {}, el("small", {}, `${kind}: `),
    (cards[kind] || []).map((t) => el("span", { class: `token-chip k-${kind}` }, String(t))), (cards[kind] || []).length ? null : el("small", {}, "—"));
  return el("section", { class: `player${obs.current_player === seat ? " to-move" : ""}` },
    el("h3", {}, el("span", { class: `pawn t-${obs.players[seat]}` }, toa.name[0]), ` Player ${seat + 1}${seat === ctx.seat ? " (you)" : ""} · ${toa.name}`),
    row("kanohi"), row("turaga"), row("key"));
}

export function render(root, obs, ctx) {
  const dice = obs.dice.map((d, i) => el("span", { class: `die d-${d}`, title: `${d} die` }, i === 0 && obs.roll ? obs.roll : "·"));
  root.replaceChildren(el("div", { class: "makuta" },
    islandView(ctx.book, obs, ctx),
    el("div", { class: "small" }, `Turn ${obs.turn} of at most ${obs.turn_limit} · boards left ${obs.pile}`,
      obs.roll ? ` · rolled ${obs.roll}, ${obs.steps_left} step${obs.steps_left === 1 ? "" : "s"} left` : "", " ", dice),
    el("div", { class: "collectors" }, obs.players.map((_, seat) => collector(ctx.book, obs, seat, ctx)))));
}
