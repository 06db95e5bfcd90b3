// Quest for Makuta: the island grows board by board. Each placed board is drawn in its turn
// and place, on a frame that pans and zooms; every space shows its printed icon and its name
// (the x,y the moves use), the tokens lying on it (face down as the seat sees them), Rahi,
// locks and the Toa pawns side by side. A click on a highlighted space walks the whole move
// there (the engine's `walks`: its own legal steps, sent one by one while the pawn walks); a
// drawn board is previewed whole in one legal placement at a time (`previews`). The last move
// stays marked (the path, where it came from, the board just laid) and the view follows
// whoever acts. Where a choice lies comes from the observation and each action's `targets`,
// never from a rule or an action id.
import { capital, el, keyMark, keyOf, legend, tooltips, zoomFrame } from "../common.js";
import { placed, svg } from "../pictures.js";
import { icon } from "./icons.js";

const SQUARE = 48;  // px per square: a 44 px space and its margin
const STEP_MS = 240;  // one space of a pawn's walk
const TURN_MS = 1400;  // the temple's turn
const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

// The icon this view draws for each printed space (a letter of data/boards.toml) and the
// tokens it draws as chips; their names and what they do are the game's key (legend.toml,
// served as the picture book's `legend`, common.js keyOf), never written here.
const SPACE_ICONS = { K: "kanohi", T: "turaga", Y: "key", R: "rahi", P: "portal", L: "start", G: "gate", M: "temple" };
const CHIPS = ["kanohi", "turaga", "key", "rahi", "lock"];
// This view's own stylesheet (common.js boardView puts it in the page).
export const stylesheet = new URL("../../css/makuta.css", import.meta.url).href;
const spaceKey = (book, letter) => keyOf(book).byLetter.space[letter];
const tokenKey = (book, kind) => keyOf(book).byLetter.token[kind];

const toaName = (book, obs, seat) => book.components.toa[obs.players[seat]].name;
// As the page names seats (ctx.name); where it gives none (a replay, a tutorial), the viewer
// is "you" and the others go by the name they gave, else their Toa.
const nameOf = (ctx, obs, seat) => (ctx.name ? ctx.name(seat)
  : seat === ctx.seat ? "you" : ctx.seats?.[seat]?.name || toaName(ctx.book, obs, seat));
const boardName = (book, id) => book.components.board_names?.[id] || id;

// The spaces of some laid boards ([board, rot, x, y] each), on the island's grid.
function spaces(book, boards) {
  const list = [];
  for (const [boardId, rot, x, y] of boards) {
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

const middleOf = (space) => space.squares[Math.floor(space.squares.length / 2)];
const pixels = ([sx, sy], origin) => [(sx - origin[0] + 0.5) * SQUARE, (sy - origin[1] + 0.5) * SQUARE];

// What a token face says: "kanohi" face down, "kanohi:hau" face up (labels from the book).
function tokenInfo(book, face) {
  const kind = face.split(":")[0];
  const label = book.components.tokens?.[face];
  const known = tokenKey(book, kind);
  return { kind, label: label || `${known?.name || kind}, face down`, text: known?.means || "" };
}

function tokenChip(book, face, where) {
  const t = tokenInfo(book, face);
  return el("span", { class: `chip tk-${t.kind}${face.includes(":") ? " up" : ""}`, "data-tip": `${t.label}${where}: ${t.text}` }, icon(t.kind));
}

function pawn(ctx, obs, seat) {
  const toa = toaName(ctx.book, obs, seat);
  const who = nameOf(ctx, obs, seat);
  const whose = seat === ctx.seat ? `Your pawn (${toa})` : `${who}'s pawn${who === toa ? "" : ` (${toa})`}`;
  return el("span", { class: `pawn t-${obs.players[seat]}`, dataset: { seat }, "data-tip": `${whose}${obs.turn_player === seat ? ", whose turn it is" : ""}` },
    el("span", { class: "pawn-head" }, toa[0]));
}

function contents(ctx, obs, space) {
  const book = ctx.book;
  const where = ` on ${space.name === "start" ? spaceKey(book, "L").name : space.name}`;
  // A Toa out of the game (resigned, out of time) has left the island: its pawn is not drawn.
  const out = obs.out || [];
  const pawns = obs.pawns.map((p, seat) => (p === space.name && !out.includes(seat) ? seat : null)).filter((s) => s !== null);
  const tokens = (space.name === "start" ? obs.start : obs.tokens[space.name]) || [];
  const things = [
    ...tokens.map((face) => tokenChip(book, face, where)),
    obs.rahi[space.name] ? tokenChip(book, obs.rahi[space.name], where) : null,
    obs.locks[space.name] ? tokenChip(book, obs.locks[space.name], where) : null,
  ].filter(Boolean);
  return [
    things.length ? el("span", { class: "chips" }, things) : null,
    pawns.length ? el("span", { class: "pawns" }, pawns.map((seat) => pawn(ctx, obs, seat))) : null,
  ];
}

const actionText = (ctx, id) => ctx.legal.find((a) => a.id === id)?.text || id;

// The walks of a move: each space the move can end on, with the legal actions that walk there.
const walksOf = (ctx) => Object.entries(ctx.gestures?.walks || {}).filter(([, walk]) => ctx.legal.some((a) => a.id === walk[0]));

// What a click on each space does: walk there (the whole move), else its one action. A step
// that only passes a space is no click of its own: one way to move, the whole walk.
function choicesOf(obs, ctx) {
  const choices = new Map();
  const at = (name) => choices.get(name) || choices.set(name, { ids: [], walk: null }).get(name);
  const walks = walksOf(ctx);
  const starts = new Set(walks.map(([, walk]) => walk[0]));
  for (const { id, targets } of ctx.legal) if (targets?.space && !targets.placement && !starts.has(id)) at(targets.space).ids.push(id);
  for (const [name, walk] of walks) at(name).walk = walk;
  return choices;
}

const stepCount = (walk) => walk.filter((id) => id !== "stop").length;

function stepsText(walk) {
  const steps = stepCount(walk);
  return `${steps} step${steps === 1 ? "" : "s"}${walk.at(-1) === "stop" ? ", then stop" : ""}`;
}

function clickText(ctx, choice) {
  if (!choice.walk || choice.walk.length === 1) return actionText(ctx, choice.walk?.[0] || choice.ids[0]);
  return `walk here (${stepsText(choice.walk)})`;
}

// The decision as the page lists it: while a walk is on its way, nothing (it is being taken);
// in a move, one button per space the move can end on, walking the whole move as a click on
// that space does. A legal action that starts no walk keeps its own button.
export function decisions(root, obs, ctx) {
  const stage = root.querySelector(":scope > .makuta");
  if (stage?.walk) return { title: `Walking to ${stage.walk.to}…`, entries: [] };
  const walks = walksOf(ctx);
  if (!stage || obs.phase !== "move" || !walks.length) return null;
  const printed = new Map(spaces(ctx.book, obs.boards).map((space) => [space.name, spaceKey(ctx.book, space.mark).name]));
  walks.sort(([a, x], [b, y]) => stepCount(x) - stepCount(y) || a.localeCompare(b, "en", { numeric: true }));
  const place = (name) => (name === "start" || name === "temple" ? printed.get(name) : `${name} · ${printed.get(name)}`);
  const entries = walks.map(([name, walk]) => ({
    text: walk.length === 1 && walk[0] === "stop" ? actionText(ctx, "stop") : `Walk to ${place(name)} (${stepsText(walk)})`,
    action: walk[0], run: () => startWalk(stage, obs, ctx, walk, name),
    light: (on) => { for (const node of stage.querySelectorAll(`.kspace[data-space="${CSS.escape(name)}"]`)) node.classList.toggle("hint", on); },
  }));
  const starts = new Set(walks.map(([, walk]) => walk[0]));
  for (const action of ctx.legal.filter((a) => !starts.has(a.id))) entries.push({ text: action.text, action: action.id, run: () => ctx.act(action.id) });
  return { entries };
}

function spaceNodes(ctx, obs, space, origin, choices, stage, extra = "") {
  const closed = space.mark === "P" && obs.portals?.[space.name] === "dead";
  const printed = closed ? keyOf(ctx.book).id["closed-portal"] : spaceKey(ctx.book, space.mark);
  const choice = choices.get(space.name);
  const clickable = choice && (choice.walk || choice.ids.length === 1);
  const walked = obs.path.indexOf(space.name);
  const reach = (obs.reach || []).includes(space.name);
  const board = boardName(ctx.book, space.board);
  const title = space.name === "start" || space.name === "temple" ? printed.name : `Space ${space.name} of ${board} · ${printed.name}`;
  const tip = `${title}: ${printed.means}${walked === 0 ? " (where the last move started)" : walked > 0 ? " (on the path just walked)" : ""}${reach ? " (within reach of this roll)" : ""}${clickable ? ` — click: ${clickText(ctx, choice)}` : ""}`;
  const dead = closed ? " dead" : "";
  const middle = Math.floor(space.squares.length / 2);
  const marks = `${clickable ? " target" : ""}${walked === 0 && obs.path.length > 1 ? " walk-from" : walked > 0 ? " walked" : ""}${reach ? " reach" : ""}`;
  return space.squares.map(([sx, sy], index) => {
    const node = el(clickable ? "button" : "div", {
      class: `kspace i-${space.mark === "." ? "plain" : space.mark}${dead}${marks}${extra}`,
      "data-tip": tip, dataset: { space: space.name, actions: (choice?.walk?.slice(0, 1) || choice?.ids || []).join(" ") },
      onclick: clickable ? () => (choice.walk ? startWalk(stage, obs, ctx, choice.walk, space.name) : ctx.act(choice.ids[0])) : null,
      "aria-label": clickable ? tip : null,
    },
    index === 0 && space.mark !== "M" && space.name !== "start" ? el("span", { class: "coord" }, space.name) : null,
    SPACE_ICONS[space.mark] && index === middle && space.mark !== "M" ? el("span", { class: "printed" }, icon(SPACE_ICONS[space.mark])) : null,
    index === middle ? contents(ctx, obs, space) : null);
    node.style.left = `${(sx - origin[0]) * SQUARE}px`;
    node.style.top = `${(sy - origin[1]) * SQUARE}px`;
    return node;
  });
}

// -- walking: one click sends the first step; each next view sends the next while it is legal

function startWalk(stage, obs, ctx, walk, to) {
  stage.walk = { actions: walk, to, base: obs.path.length, sentAt: obs.path.length };
  stage.dataset.walking = "on";  // for a reader (or a test) to know the move is not done
  ctx.act(walk[0]);
}

function walkOn(stage, obs, ctx) {
  const walk = stage.walk;
  if (!walk) return;
  const next = walk.actions[obs.path.length - walk.base];
  // A step with nothing to choose is the server's (offered to no one): the walk waits for it.
  if (obs.phase === "move" && obs.current_player === ctx.seat && !ctx.legal.length) return;
  if (obs.phase !== "move" || !next || !ctx.legal.some((a) => a.id === next)) {
    stage.walk = null;  // the move ended, or something else is to decide: the player decides
    delete stage.dataset.walking;
    return;
  }
  if (obs.path.length === walk.sentAt) return;  // drawn again before the last step was taken
  const version = stage.version;
  walk.sentAt = obs.path.length;
  const send = () => { if (stage.version === version && stage.walk === walk) ctx.act(next); };
  if (stage.moving) stage.moving.finished.then(send, send);
  else send();
}

// A pawn that moved since the last view walks its path there (or glides, when put or flown).
function animatePawns(stage, obs, list, origin) {
  stage.moving = null;
  const before = stage.pawns;
  stage.pawns = [...obs.pawns];
  if (!before || reducedMotion()) return;
  const centre = (name) => { const s = list.find((q) => q.name === name); return s && pixels(middleOf(s), origin); };
  obs.pawns.forEach((to, seat) => {
    const from = before[seat];
    if (from === to) return;
    const i = obs.path.lastIndexOf(from);
    const j = obs.path.lastIndexOf(to);
    const route = seat === obs.turn_player && i >= 0 && j > i ? obs.path.slice(i, j + 1) : [from, to];
    const points = route.map(centre);
    const node = stage.frame.content.querySelector(`.kspace[data-space="${CSS.escape(to)}"] .pawn[data-seat="${seat}"]`);
    if (!node || points.some((p) => !p)) return;
    const end = points.at(-1);
    node.classList.add("moving");
    const animation = node.animate(points.map(([x, y]) => ({ transform: `translate(${x - end[0]}px, ${y - end[1]}px)` })),
      { duration: STEP_MS * (points.length - 1), easing: "ease-in-out" });
    animation.finished.then(() => node.classList.remove("moving"), () => {});
    if (seat === obs.turn_player) stage.moving = animation;
  });
}

// -- laying a board: every legal placement outlined, one at a time drawn whole

function placementsOf(obs, ctx) {
  const mine = ctx.legal.filter((a) => a.targets?.placement);
  if (mine.length) return mine.map((a) => ({ id: a.id, at: a.targets.placement, portal: a.targets.portal, text: a.text }));
  return Object.entries(obs.placements || {}).map(([id, at]) => ({ id, at, portal: ctx.gestures?.previews?.[id]?.portal, text: "" }));
}

function outlines(ctx, obs, stage, origin) {
  return stage.lay.options.map(({ id, at: [rot, x, y] }) => {
    const size = ctx.book.components.boards[obs.placing][rot].size;
    const outline = el("div", { class: "outline", dataset: { placement: id } });
    Object.assign(outline.style, { left: `${(x - origin[0]) * SQUARE}px`, top: `${(y - origin[1]) * SQUARE}px`,
      width: `${size * SQUARE}px`, height: `${size * SQUARE}px` });
    return outline;
  });
}

// One button per way to lay the board, beside the bar: pointing at one shows it, a click lays it.
function wayButtons(ctx, obs, stage) {
  const name = boardName(ctx.book, obs.placing);
  return stage.lay.options.map((option, index) => el("button", {
    class: "place target", dataset: { actions: option.id }, onclick: () => ctx.act(option.id),
    onmouseenter: () => showPlacement(stage, index), onfocus: () => showPlacement(stage, index),
    "data-tip": `${option.text}: click to lay ${name} so` }, `${index + 1}: ↻${option.at[0] * 90}°`));
}

// The placement shown whole: the new board's spaces with the tokens that would be laid on it
// (face down), its portals open, joined or closed, and the bar that says it and lays it.
function showPlacement(stage, index) {
  const { obs, ctx, origin, options, layer } = stage.lay;
  const count = options.length;
  stage.lay.index = (index + count) % count;
  const option = options[stage.lay.index];
  const preview = ctx.gestures?.previews?.[option.id];
  for (const node of stage.querySelectorAll(".outline, .place")) {
    node.classList.toggle("shown", (node.dataset.placement || node.dataset.actions) === option.id);
  }
  if (!preview) return;
  const looks = { ...obs, tokens: preview.tokens, rahi: preview.rahi, locks: { ...obs.locks, ...preview.locks }, portals: preview.portals, pawns: [], path: [], reach: [], start: [] };
  const list = spaces(ctx.book, [[obs.placing, ...option.at]]);
  layer.replaceChildren(...list.flatMap((s) => spaceNodes(ctx, looks, s, origin, new Map(), stage, " preview")));
  const [rot] = option.at;
  stage.layBar.querySelector(".lay-text").textContent =
    `${boardName(ctx.book, obs.placing)}: way ${stage.lay.index + 1} of ${count}, ${rot ? `turned ${rot * 90}°` : "not turned"}, by its portal ${option.portal}`;
  stage.layBar.querySelector(".lay-it").onclick = () => ctx.act(option.id);
}

function layBar(stage) {
  const cycle = (by) => () => stage.lay && showPlacement(stage, stage.lay.index + by);
  const bar = el("div", { class: "lay-bar no-pan", hidden: true, role: "group", "aria-label": "Lay the new board" },
    el("button", { "aria-label": "Previous way to lay it", "data-tip": "Previous way to lay it (← key)", onclick: cycle(-1) }, "◀"),
    el("span", { class: "lay-text", "aria-live": "polite" }),
    el("button", { "aria-label": "Next way to lay it", "data-tip": "Next way to lay it (→ key)", onclick: cycle(1) }, "▶"),
    el("button", { class: "lay-it" }, "Lay it here"), el("span", { class: "ways" }));
  document.addEventListener("keydown", (event) => {
    if (!stage.lay?.mine || event.target.closest?.("input, textarea, select")) return;
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      event.preventDefault();
      cycle(event.key === "ArrowLeft" ? -1 : 1)();
    }
  });
  return bar;
}

// -- the island

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

// Makuta's temple as one disc, its segments' colours facing the gates clockwise from north
// (turned with its board); it turns visibly when a challenge turns it.
function temple(book, obs, stage, origin) {
  const laid = obs.boards.find(([id]) => book.components.boards[id][0].temple.length);
  if (!laid || !obs.temple) return [];
  const [id, rot, x, y] = laid;
  const squares = book.components.boards[id][rot].temple.map(([tx, ty]) => [x + tx, y + ty]);
  const [x0, y0] = [Math.min(...squares.map((q) => q[0])), Math.min(...squares.map((q) => q[1]))];
  const side = (Math.max(...squares.map((q) => q[0])) - x0 + 1) * SQUARE;
  const step = 360 / obs.temple.length;
  const stops = obs.temple.map((colour, g) => `${colour} ${g * step}deg ${(g + 1) * step}deg`).join(", ");
  const temple = spaceKey(book, "M");
  const node = el("div", { class: "temple", "data-tip": `${temple.name}: ${temple.means} The segments face the gates, clockwise from north: ${obs.temple.join(", ")}.` },
    el("span", { class: "printed" }, icon("temple")));
  Object.assign(node.style, { left: `${(x0 - origin[0]) * SQUARE + 2}px`, top: `${(y0 - origin[1]) * SQUARE + 2}px`, width: `${side - 4}px`, height: `${side - 4}px`,
    background: `conic-gradient(from ${rot * 90 - step / 2}deg, ${stops})` });
  const before = stage.temple;
  stage.temple = obs.temple.join();
  const turned = before && before !== stage.temple ? turnOf(before.split(","), obs.temple) : 0;
  if (turned && !reducedMotion()) {
    requestAnimationFrame(() => node.animate([{ transform: `rotate(${-turned * step}deg)` }, { transform: "rotate(0)" }], { duration: TURN_MS, easing: "ease-out" }));
  }
  return [node];
}

// How many segments clockwise the temple turned from `before` to `after`.
function turnOf(before, after) {
  const n = after.length;
  for (let r = 1; r < n; r += 1) if (after.every((c, g) => c === before[(g - r + n) % n])) return r;
  return 0;
}

function island(ctx, obs, stage) {
  const { book } = ctx;
  const frame = stage.frame;
  const list = spaces(book, obs.boards);
  const { origin, width, height } = extent(book, obs, list);
  const choices = choicesOf(obs, ctx);
  // The board just laid stays marked until the next move starts (a new path).
  if (stage.boardCount !== undefined && obs.boards.length > stage.boardCount) stage.fresh = { index: obs.boards.length - 1, path: obs.path.join(), arriving: true };
  stage.boardCount = obs.boards.length;
  if (stage.fresh && stage.fresh.path !== obs.path.join() && obs.path.length <= 1) stage.fresh = null;
  const boards = obs.boards.map(([boardId, rot, x, y], index) => {
    const size = book.components.boards[boardId][rot].size;
    const fresh = stage.fresh?.index === index;
    const node = el("div", { class: `kboard b-${boardId.split("-")[0]}${fresh ? " fresh" : ""}`, "data-tip": `${boardName(book, boardId)}${fresh ? " (just laid)" : ""}: scenery between its spaces` });
    Object.assign(node.style, { left: `${(x - origin[0]) * SQUARE}px`, top: `${(y - origin[1]) * SQUARE}px`,
      width: `${size * SQUARE}px`, height: `${size * SQUARE}px` });
    if (fresh && stage.fresh.arriving && !reducedMotion()) {  // the new board slides in, once
      stage.fresh.arriving = false;
      node.animate([{ opacity: 0, transform: "translateY(-24px) scale(.9)" }, { opacity: 1, transform: "none" }], { duration: 700, easing: "ease-out" });
    }
    return node;
  });
  const options = obs.placing ? placementsOf(obs, ctx) : [];
  const mine = options.some((o) => o.text);
  const layer = el("div", { class: "preview-layer" });
  const keep = stage.lay?.placing === obs.placing && stage.lay.options.length === options.length ? stage.lay.index : 0;
  stage.lay = options.length ? { obs, ctx, origin, options, layer, mine, placing: obs.placing, index: keep } : null;
  frame.content.style.width = `${width * SQUARE}px`;
  frame.content.style.height = `${height * SQUARE}px`;
  frame.content.replaceChildren(...boards, ...list.flatMap((s) => spaceNodes(ctx, obs, s, origin, choices, stage)),
    ...temple(book, obs, stage, origin), ...(stage.lay ? outlines(ctx, obs, stage, origin) : []), layer);
  stage.layBar.hidden = !mine;
  stage.layBar.querySelector(".ways").replaceChildren(...(mine ? wayButtons(ctx, obs, stage) : []));
  if (stage.lay) showPlacement(stage, stage.lay.index);
  animatePawns(stage, obs, list, origin);
  follow(stage, obs, list, origin, ctx.legal.length > 0);
}

// Keep what is happening in view: the board being laid; at your decision, your pawn; else the
// board just laid, or the pawn of the Toa acting. The frame pans only when that place is near
// its edge or out of sight, so a reader's own panning is not undone.
function follow(stage, obs, list, origin, deciding) {
  const frame = stage.frame;
  let point;
  if (stage.lay) {
    const spots = stage.lay.options.map(({ at: [rot, x, y] }) => [x + 3, y + 3]);
    point = [0, 1].map((k) => spots.reduce((sum, q) => sum + q[k], 0) / spots.length);
  } else if (stage.fresh && !stage.fresh.shown && !deciding) {
    const [, , x, y] = obs.boards[stage.fresh.index];
    point = [x + 3, y + 3];
    stage.fresh.shown = true;
  } else {
    const at = list.find((s) => s.name === obs.pawns[obs.turn_player ?? 0]);
    if (!at) return;
    point = middleOf(at);
  }
  const [px, py] = pixels(point, origin);
  requestAnimationFrame(() => {
    const scale = frame.zoom.getScale();
    const pan = frame.zoom.getPan();
    const [sx, sy] = [(px + pan.x) * scale, (py + pan.y) * scale];
    const [w, h] = [frame.frame.clientWidth, frame.frame.clientHeight];
    const inside = sx > w * 0.15 && sx < w * 0.85 && sy > h * 0.15 && sy < h * 0.85;
    if (stage.followed && inside) return;
    stage.followed = true;
    frame.point = [px, py];
    frame.fitted = false;
    frame.zoom.pan(w / 2 / scale - px, h / 2 / scale - py, { animate: !reducedMotion() });
  });
}

// -- the players

function die(book, obs, seat, rolled) {
  const colour = obs.dice[seat];
  const toa = toaName(book, obs, seat);
  // The roll belongs to this turn once the turn player has rolled (until then it is the last turn's).
  const shown = seat === obs.turn_player && obs.roll && obs.phase !== "roll" ? obs.roll : "";
  // Not rolled: the die's name, never a blank face (it looked like a picture that failed).
  if (!shown) return el("span", { class: "die-unrolled", "data-tip": `${toa}'s ${colour} die: not rolled yet` }, `${colour} die`);
  return el("span", { class: `die d-${colour}${rolled ? " rolling" : ""}`,
    "data-tip": `${toa}'s ${colour} die: rolled ${shown}, ${obs.steps_left} step${obs.steps_left === 1 ? "" : "s"} left` }, shown);
}

function collectorRows(ctx, obs, seat) {
  const cards = obs.cards[seat];
  return ["kanohi", "turaga", "key"].map((kind) => el("div", { class: "collect-row" }, el("small", {}, `${tokenKey(ctx.book, kind).name}s: `),
    (cards[kind] || []).length ? cards[kind].map((face) => el("span", { class: "chip-line" }, tokenChip(ctx.book, face, ""), tokenInfo(ctx.book, face).label))
      : el("small", {}, "none")));
}

function heading(ctx, obs, seat, rolled) {
  const toa = toaName(ctx.book, obs, seat);
  const who = capital(nameOf(ctx, obs, seat));
  return el("h3", {}, pawn(ctx, obs, seat), ` ${who}${who === toa ? "" : ` · ${toa}`} `, die(ctx.book, obs, seat, rolled));
}

function collector(ctx, obs, seat, rolled, attrs = {}) {
  return el("section", { class: `player${obs.current_player === seat ? " to-move" : ""}`, ...attrs },
    heading(ctx, obs, seat, rolled), collectorRows(ctx, obs, seat));
}

// The viewer's own card and die: in `ctx.mine` (always on screen) when the page gives one,
// else first among the others, as a region of its own.
function collectors(ctx, obs, stage, rolled) {
  const others = obs.players.map((_, seat) => seat).filter((seat) => seat !== ctx.seat);
  const list = others.map((seat) => collector(ctx, obs, seat, rolled && seat === obs.turn_player));
  const own = ctx.seat === null || ctx.seat === undefined ? null : ctx.seat;
  if (own !== null && ctx.mine) {
    ctx.mine.setAttribute("aria-label", "Your collector card");
    if (!ctx.mine.getAttribute("role")) ctx.mine.setAttribute("role", "region");
    ctx.mine.replaceChildren(el("div", { class: "player mine makuta-mine" }, heading(ctx, obs, own, rolled && own === obs.turn_player), collectorRows(ctx, obs, own)));
  } else if (own !== null) {
    list.unshift(collector(ctx, obs, own, rolled && own === obs.turn_player, { role: "region", "aria-label": "Your collector card", class: `player mine${obs.current_player === own ? " to-move" : ""}` }));
  }
  stage.querySelector(".collectors").replaceChildren(...list);
}

function legendRows(book) {
  // A printed thing's row: its mark as the How to play page draws it (keyMarks), the key's words.
  const row = (symbol, more = "") => ({ mark: keyMarks[symbol.group](symbol, book), name: symbol.name, text: `${symbol.means}${more}` });
  return [
    ...Object.keys(SPACE_ICONS).map((letter) => row(spaceKey(book, letter))),
    row(keyOf(book).id["closed-portal"]),
    ...CHIPS.map((kind) => row(tokenKey(book, kind), " A token lies on a space as a round chip.")),
    row(keyOf(book).id.pawn),
    { mark: el("span", { class: "legend-mark kspace walk-from" }), name: "Where the last move started", text: "The space the last Toa to move came from; its path is marked up to where it stands." },
    { mark: el("span", { class: "legend-mark kspace walked" }), name: "Path just walked", text: "The spaces the last move passed (a move may not double back)." },
    { mark: el("span", { class: "legend-mark kspace reach" }), name: "Within reach", text: "The spaces the steps left of this roll can reach." },
    { mark: el("span", { class: "legend-mark kspace target" }), name: "Where you can go", text: "Click a highlighted space to walk there: the whole move in one click. Laying a board: ◀ ▶ (or the arrow keys, or pointing at a “Lay here” button) show each way, “Lay it here” lays it." },
    { mark: el("span", { class: "legend-mark coord-mark" }, "2,-3"), name: "Space names", text: "Each space is named x,y: the names the moves and the log use." },
  ];
}

// The How to play page's key (js/rules.js): a space is a square with its printed icon, a
// token a round chip, as this board draws them.
export const keyMarks = {
  space: ({ id, letter }) => {
    const portal = { "joined-portal": " joined", "closed-portal": " dead" }[id];
    const code = portal ? "P" : letter;
    return keyMark(`kspace i-${code === "." ? "plain" : code === "#" ? "scenery" : code}${portal || ""}`,
      SPACE_ICONS[code] ? el("span", { class: "printed" }, icon(SPACE_ICONS[code])) : null);
  },
  piece: () => keyMark("pawn t-tahu", el("span", { class: "pawn-head" }, "T")),
  token: ({ letter }) => keyMark(`chip tk-${letter}`, icon(letter)),
  die: ({ letter }) => keyMark(`die d-${letter}`, "6"),
};

export function render(root, obs, ctx) {
  let stage = root.querySelector(":scope > .makuta");
  if (!stage) {
    const frame = zoomFrame("island");
    stage = el("div", { class: "makuta" }, el("div", { class: "board-bar" }, legend("Legend: what the symbols mean", legendRows(ctx.book)), frame.tools),
      frame.frame, el("div", { class: "small turn-line" }), el("div", { class: "collectors" }));
    stage.frame = frame;
    stage.version = 0;
    stage.layBar = layBar(stage);
    frame.frame.after(stage.layBar);
    root.replaceChildren(stage);
    frame.mount();
  }
  stage.version += 1;
  tooltips(root);
  const rollKey = `${obs.turn}:${obs.phase === "roll" ? 0 : obs.roll}`;
  const rolled = obs.roll && stage.rollKey !== undefined && stage.rollKey !== rollKey;
  stage.rollKey = rollKey;
  island(ctx, obs, stage);
  walkOn(stage, obs, ctx);
  const turnSeat = obs.turn_player ?? 0;
  stage.querySelector(".turn-line").replaceChildren(
    `Turn ${Math.min(obs.turn, obs.turn_limit)} of at most ${obs.turn_limit} · boards left ${obs.pile}`,  // the engine counts past the limit at the draw
    obs.placing ? ` · ${capital(nameOf(ctx, obs, turnSeat))} ${turnSeat === ctx.seat ? "lay" : "lays"} ${boardName(ctx.book, obs.placing)}` : "",
    ` · ${capital(nameOf(ctx, obs, turnSeat))}${turnSeat === ctx.seat ? "r" : "'s"} die: `, die(ctx.book, obs, turnSeat, rolled));
  collectors(ctx, obs, stage, rolled);
}

// The figures of the end: what each Toa carried on their collector card.
export function summary(obs, book) {
  const figure = (kind) => ({ label: `${tokenKey(book, kind).name}s`, values: obs.cards.map((card) => (card[kind] || []).length) });
  return { turns: obs.turn, figures: ["key", "kanohi", "turaga"].map(figure) };
}

// The lobby's picture (js/pictures.js): boards of square spaces laid portal to portal, Toa
// Landing's star, a key and a Kanohi to collect, and Makuta's temple waiting beyond.
export function picture() {
  const square = (x, y, colour = "#d9cfa8") => svg("rect", { x, y, width: 16, height: 16, rx: 2, fill: colour, stroke: "rgba(0,0,0,.35)" });
  const board = (x0, y0) => [0, 1, 2, 3].flatMap((r) => [0, 1, 2, 3].map((c) => square(x0 + c * 17, y0 + r * 17)));
  return [
    ...board(8, 14), ...board(84, 14),
    square(59, 48, "#8fd9e4"), square(84, 48, "#8fd9e4"),
    placed("portal", 61, 50, 12, "#0f5560"), placed("portal", 86, 50, 12, "#0f5560"),
    svg("rect", { x: 8, y: 14, width: 33, height: 33, rx: 2, fill: "#f2d36b" }),
    placed("start", 14, 20, 21, "#7a5a00"),
    placed("key", 27, 66, 14, "#5a6a00"), placed("kanohi", 44, 32, 14, "#8a4a00"),
    placed("rahi", 103, 32, 14, "#8a1010"),
    svg("rect", { x: 118, y: 48, width: 33, height: 33, rx: 2, fill: "#3a0505" }),
    placed("temple", 121, 51, 27, "#ff8a7a"),
  ];
}
