// Quest for Makuta: the island grows board by board. Each placed board is drawn in its turn
// and place, on a frame that pans and zooms; every space shows its printed icon and its name
// (the x,y the moves use), the tokens lying on it (face down as the seat sees them), Rahi,
// locks and the Toa pawns side by side. The path just walked and the spaces the roll can
// still reach are marked, the spaces a step leads to are clickable, and a drawn board is shown in every legal placement to click.
// Where a choice lies comes from the observation (`leads_to`, `reach`, `placements`), never
// from a rule.
import { el, legend, tooltips, zoomFrame } from "../common.js";
import { icon } from "./icons.js";

const SQUARE = 48;  // px per square: a 44 px space and its margin

// The printed icons: the board files' legend (data/boards.toml), in words for the reader.
const SPACES = {
  ".": { icon: null, name: "Plain space", text: "Nothing printed: walk across it." },
  K: { icon: "kanohi", name: "Kanohi space", text: "A Kanohi (mask) token is laid here when the board is placed; land on it to take the token." },
  T: { icon: "turaga", name: "Turaga space", text: "A Turaga token is laid here when the board is placed; land on it to take the token." },
  Y: { icon: "key", name: "Key space", text: "A key token is laid here when the board is placed; keys open the locks of the temple gates." },
  R: { icon: "rahi", name: "Rahi space", text: "A Rahi lies here, face down: land on it and you must fight it with your die." },
  P: { icon: "portal", name: "Portal", text: "Land on an open portal to take the next board and join it to the island here." },
  L: { icon: "start", name: "Toa Landing", text: "The start space: every Toa begins here, and tokens given back lie here face down (the start pile)." },
  G: { icon: "gate", name: "Temple gate", text: "A gate of Makuta's temple, closed by a lock: open it with keys that match its code, then challenge Makuta." },
  M: { icon: "temple", name: "Makuta's temple", text: "Not a space: the temple in the centre of Makuta's board, turned by its gates." },
};
const TOKENS = {
  kanohi: { name: "Kanohi token", text: "A Great Mask: kept on your collector card, it adds to your rolls or has a power." },
  turaga: { name: "Turaga token", text: "A village elder: kept on your collector card, it helps in a challenge." },
  key: { name: "Key token", text: "Part of a gate's code: the right keys open a lock of the temple." },
  rahi: { name: "Rahi", text: "A wild creature guarding this space: landing here means a fight." },
  lock: { name: "Lock", text: "Closes a temple gate; its secret code is shown when it is opened." },
};

function spaces(book, obs) {
  const list = [];
  for (const [boardId, rot, x, y] of obs.boards) {
    const shape = book.components.boards[boardId][rot];
    shape.cells.forEach((squares, i) => {
      const mark = shape.icons[i];
      const name = mark === "L" ? "start" : `${x + squares[0][0]},${y + squares[0][1]}`;
      list.push({ name, mark, squares: squares.map(([cx, cy]) => [x + cx, y + cy]), board: boardId });
    });
    for (const [tx, ty] of shape.temple) list.push({ name: "temple", mark: "M", squares: [[x + tx, y + ty]], board: boardId });
  }
  return list;
}

// What a token face says: "kanohi" face down, "kanohi:hau" face up (labels from the book).
function tokenInfo(book, face) {
  const kind = face.split(":")[0];
  const label = book.components.tokens?.[face];
  return { kind, label: label || `${TOKENS[kind]?.name || kind}, face down`, ...TOKENS[kind] };
}

function tokenChip(book, face, where) {
  const t = tokenInfo(book, face);
  return el("span", { class: `chip tk-${t.kind}${face.includes(":") ? " up" : ""}`, "data-tip": `${t.label}${where}: ${t.text}` }, icon(t.kind));
}

function pawn(book, obs, seat) {
  const toa = book.components.toa[obs.players[seat]];
  return el("span", { class: `pawn t-${obs.players[seat]}`, "data-tip": `${toa.name}'s pawn (Player ${seat + 1})${obs.turn_player === seat ? ", whose turn it is" : ""}` },
    el("span", { class: "pawn-head" }, toa.name[0]));
}

function contents(book, obs, space) {
  const where = ` on ${space.name === "start" ? "Toa Landing" : space.name}`;
  const pawns = obs.pawns.map((p, seat) => (p === space.name ? seat : null)).filter((s) => s !== null);
  const tokens = (space.name === "start" ? obs.start : obs.tokens[space.name]) || [];
  const things = [
    ...tokens.map((face) => tokenChip(book, face, where)),
    obs.rahi[space.name] ? tokenChip(book, obs.rahi[space.name], where) : null,
    obs.locks[space.name] ? tokenChip(book, obs.locks[space.name], where) : null,
  ].filter(Boolean);
  return [
    things.length ? el("span", { class: "chips" }, things) : null,
    pawns.length ? el("span", { class: "pawns" }, pawns.map((seat) => pawn(book, obs, seat))) : null,
  ];
}

function spaceNodes(book, obs, ctx, space, origin, targets) {
  const printed = SPACES[space.mark];
  const here = targets.get(space.name) || [];
  const walked = obs.path.indexOf(space.name);
  const reach = (obs.reach || []).includes(space.name);
  const board = book.components.board_names?.[space.board] || space.board;
  const title = space.name === "start" ? "Toa Landing (start)" : space.name === "temple" ? "Makuta's temple" : `Space ${space.name} of ${board}`;
  const tip = `${title} · ${printed.name}: ${printed.text}${walked >= 0 ? " (on the path just walked)" : ""}${reach ? " (within reach of this roll)" : ""}${here.length ? ` — click: ${actionText(ctx, here[0])}` : ""}`;
  const middle = Math.floor(space.squares.length / 2);
  return space.squares.map(([sx, sy], index) => {
    const node = el(here.length === 1 ? "button" : "div", {
      class: `kspace i-${space.mark === "." ? "plain" : space.mark}${here.length ? " target" : ""}${walked >= 0 ? " walked" : ""}${reach ? " reach" : ""}`,
      "data-tip": tip, dataset: { space: space.name, actions: here.join(" ") },
      onclick: here.length === 1 ? () => ctx.act(here[0]) : null, "aria-label": here.length === 1 ? tip : null,
    },
    index === 0 && space.mark !== "M" && space.name !== "start" ? el("span", { class: "coord" }, space.name) : null,
    printed.icon && (index === middle || space.mark === "M") ? el("span", { class: "printed" }, icon(printed.icon)) : null,
    index === middle ? contents(book, obs, space) : null);
    node.style.left = `${(sx - origin[0]) * SQUARE}px`;
    node.style.top = `${(sy - origin[1]) * SQUARE}px`;
    return node;
  });
}

const actionText = (ctx, id) => ctx.legal.find((a) => a.id === id)?.text || id;

// Where each legal step or jump leads: a space name per action id, from the observation.
function targetsOf(obs, ctx) {
  const targets = new Map();
  for (const { id } of ctx.legal) {
    const [kind, arg] = id.split(":");
    const name = obs.leads_to?.[id] ?? ((kind === "to" || kind === "put") ? arg : null);
    if (name) targets.set(name, [...(targets.get(name) || []), id]);
  }
  return targets;
}

// The drawn board in every legal placement, faint (the one whose button is pointed at shows
// its spaces and icons), each with a button to lay it so. Buttons never cover each other.
function ghosts(book, obs, ctx, origin) {
  if (!obs.placing) return [];
  const name = book.components.board_names?.[obs.placing] || obs.placing;
  const taken = [];  // button rectangles already placed, in island pixels
  const free = (x, y) => !taken.some(([tx, ty]) => Math.abs(tx - x) < 96 && Math.abs(ty - y) < 50);
  return Object.entries(obs.placements || {}).filter(([id]) => ctx.legal.some((a) => a.id === id)).map(([id, [rot, x, y]]) => {
    const shape = book.components.boards[obs.placing][rot];
    const squares = shape.cells.flatMap((cell, i) => cell.map(([cx, cy], j) => {
      const mark = SPACES[shape.icons[i]];
      const square = el("span", { class: `ghost-square i-${shape.icons[i] === "." ? "plain" : shape.icons[i]}` },
        j === 0 && mark?.icon ? icon(mark.icon) : null);
      Object.assign(square.style, { left: `${cx * SQUARE}px`, top: `${cy * SQUARE}px` });
      return square;
    }));
    const [left, top] = [(x - origin[0]) * SQUARE, (y - origin[1]) * SQUARE];
    let [bx, by] = [left + (shape.size / 2) * SQUARE - 45, top + (shape.size / 2) * SQUARE - 22];
    while (!free(bx, by)) by += 50;
    taken.push([bx, by]);
    const ghost = el("div", { class: "ghost", dataset: { placement: id } }, squares);
    Object.assign(ghost.style, { left: `${left}px`, top: `${top}px`, width: `${shape.size * SQUARE}px`, height: `${shape.size * SQUARE}px` });
    const show = (on) => () => ghost.classList.toggle("shown", on);
    const place = el("button", { class: "place target no-pan", dataset: { actions: id }, onclick: () => ctx.act(id),
      onmouseenter: show(true), onmouseleave: show(false), onfocus: show(true), onblur: show(false),
      "data-tip": `${actionText(ctx, id)}: click to lay ${name} here` }, `portal ${id.split(":")[2]} ↻${rot * 90}°`);
    Object.assign(place.style, { left: `${bx}px`, top: `${by}px` });
    return [ghost, place];
  }).flat();
}

function extent(book, obs, list) {
  const squares = list.flatMap((s) => s.squares);
  for (const [rot, x, y] of Object.values(obs.placements || {})) {
    const size = book.components.boards[obs.placing][rot].size;
    squares.push([x, y], [x + size - 1, y + size - 1]);
  }
  const xs = squares.map((q) => q[0]);
  const ys = squares.map((q) => q[1]);
  return { origin: [Math.min(...xs), Math.min(...ys)], width: Math.max(...xs) - Math.min(...xs) + 1, height: Math.max(...ys) - Math.min(...ys) + 1 };
}

function island(book, obs, ctx, frame) {
  const list = spaces(book, obs);
  const { origin, width, height } = extent(book, obs, list);
  const targets = targetsOf(obs, ctx);
  const boards = obs.boards.map(([boardId, rot, x, y]) => {
    const size = book.components.boards[boardId][rot].size;
    const node = el("div", { class: `kboard b-${boardId.split("-")[0]}`, "data-tip": `${book.components.board_names?.[boardId] || boardId}: scenery between its spaces` });
    Object.assign(node.style, { left: `${(x - origin[0]) * SQUARE}px`, top: `${(y - origin[1]) * SQUARE}px`,
      width: `${size * SQUARE}px`, height: `${size * SQUARE}px` });
    return node;
  });
  frame.content.style.width = `${width * SQUARE}px`;
  frame.content.style.height = `${height * SQUARE}px`;
  frame.content.replaceChildren(...boards, ...list.flatMap((s) => spaceNodes(book, obs, ctx, s, origin, targets)),
    ...ghosts(book, obs, ctx, origin));
  // Keep the turn player's pawn in view when the turn passes or a board is being laid.
  const focus = `${obs.turn}:${obs.placing}:${JSON.stringify(origin)}`;
  if (frame.focus !== focus) {
    frame.focus = focus;
    const pawnAt = list.find((s) => s.name === obs.pawns[obs.turn_player ?? 0]);
    const spots = Object.values(obs.placements || {}).map(([, x, y]) => [x + 3, y + 3]);
    if (pawnAt) spots.push(pawnAt.squares[Math.floor(pawnAt.squares.length / 2)]);
    if (spots.length) {
      const [sx, sy] = [0, 1].map((k) => spots.reduce((sum, q) => sum + q[k], 0) / spots.length);
      requestAnimationFrame(() => frame.centre((sx - origin[0] + 0.5) * SQUARE, (sy - origin[1] + 0.5) * SQUARE));
    }
  }
}

function die(book, obs, seat, rolled) {
  const colour = obs.dice[seat];
  const toa = book.components.toa[obs.players[seat]].name;
  // The roll belongs to this turn once the turn player has rolled (until then it is the last turn's).
  const shown = seat === obs.turn_player && obs.roll && obs.phase !== "roll" ? obs.roll : "";
  return el("span", { class: `die d-${colour}${rolled && shown ? " rolling" : ""}`,
    "data-tip": `${toa}'s ${colour} die${shown ? `: rolled ${shown}, ${obs.steps_left} step${obs.steps_left === 1 ? "" : "s"} left` : ""}` }, shown);
}

function collector(book, obs, seat, ctx) {
  const cards = obs.cards[seat];
  const toa = book.components.toa[obs.players[seat]];
  const row = (kind) => el("div", { class: "collect-row" }, el("small", {}, `${TOKENS[kind].name}s: `),
    (cards[kind] || []).length ? cards[kind].map((face) => el("span", { class: "chip-line" }, tokenChip(book, face, ""), tokenInfo(book, face).label))
      : el("small", {}, "none"));
  return el("section", { class: `player${obs.current_player === seat ? " to-move" : ""}` },
    el("h3", {}, pawn(book, obs, seat), ` Player ${seat + 1}${seat === ctx.seat ? " (you)" : ""} · ${toa.name} `, die(book, obs, seat, false)),
    row("kanohi"), row("turaga"), row("key"));
}

function legendRows() {
  const mark = (name, cls = "") => el("span", { class: `legend-mark ${cls}` }, icon(name));
  return [
    ...Object.entries(SPACES).filter(([, s]) => s.icon).map(([key, s]) => ({ mark: el("span", { class: `legend-mark kspace i-${key}` }, el("span", { class: "printed" }, icon(s.icon))), name: s.name, text: s.text })),
    ...Object.entries(TOKENS).map(([kind, t]) => ({ mark: mark(kind, `chip tk-${kind}`), name: t.name, text: `${t.text} A token lies on a space as a round chip.` })),
    { mark: el("span", { class: "legend-mark pawn t-tahu" }, el("span", { class: "pawn-head" }, "T")), name: "Toa pawn", text: "A player's Toa, with its initial; several on one space stand side by side." },
    { mark: el("span", { class: "legend-mark kspace walked" }), name: "Path just walked", text: "The spaces this turn's move has passed (a move may not double back)." },
    { mark: el("span", { class: "legend-mark kspace reach" }), name: "Within reach", text: "The spaces the steps left of this roll can reach." },
    { mark: el("span", { class: "legend-mark kspace target" }), name: "Where you can go", text: "Click a highlighted space (or a ↻ button when laying a board) to choose it." },
    { mark: el("span", { class: "legend-mark coord-mark" }, "2,-3"), name: "Space names", text: "Each space is named x,y: the names the moves and the log use." },
  ];
}

export function render(root, obs, ctx) {
  let stage = root.querySelector(":scope > .makuta");
  if (!stage) {
    const frame = zoomFrame("island");
    stage = el("div", { class: "makuta" }, el("div", { class: "board-bar" }, legend("Legend: what the symbols mean", legendRows()), frame.tools),
      frame.frame, el("div", { class: "small turn-line" }), el("div", { class: "collectors" }));
    stage.frame = frame;
    root.replaceChildren(stage);
    frame.mount();
  }
  tooltips(root);
  const rollKey = `${obs.turn}:${obs.phase === "roll" ? 0 : obs.roll}`;
  const rolled = obs.roll && stage.rollKey !== undefined && stage.rollKey !== rollKey;
  stage.rollKey = rollKey;
  island(ctx.book, obs, ctx, stage.frame);
  const turnSeat = obs.turn_player ?? 0;
  stage.querySelector(".turn-line").replaceChildren(
    `Turn ${obs.turn} of at most ${obs.turn_limit} · boards left ${obs.pile}`,
    obs.placing ? ` · laying ${ctx.book.components.board_names?.[obs.placing] || obs.placing}: click a ↻ button on the map` : "",
    " · die: ", die(ctx.book, obs, turnSeat, rolled));
  stage.querySelector(".collectors").replaceChildren(...obs.players.map((_, seat) => collector(ctx.book, obs, seat, ctx)));
}
