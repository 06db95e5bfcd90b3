// The ratings pages: a game's leaderboard (/ratings/GAME: the accounts best first, the bots'
// fixed ratings as reference rows) and a player's profile (/players/NAME: per game the rating,
// a plot of its history drawn here as inline SVG, and the rated games newest first, paged).
// Every name is a text node, never markup.
import { api, el } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const PAGE = 20;
const main = document.getElementById("main");
// One page draws both: a leaderboard (/ratings/<game>) and a profile (/players/<name>).
const page = location.pathname.startsWith("/players/") ? "player" : "ratings";
const part = decodeURIComponent(location.pathname.split("/")[2] || "");

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

function failed(message) {
  main.replaceChildren(el("p", { class: "error", role: "alert" }, message));
}

async function navigation(current) {
  const catalog = await api("/api/catalog");
  const links = catalog.map((g) => el("a", { href: `/ratings/${g.id}`, "aria-current": g.id === current ? "page" : null }, g.title));
  document.getElementById("nav").replaceChildren(el("a", { href: "/" }, "Lobby"), ...links.flatMap((a) => [" · ", a]));
  return catalog;
}

const whenText = (at) => new Date(at * 1000).toLocaleDateString();
const ratingCell = (row) => `${Math.round(row.rating)}${row.provisional ? "?" : ""}`;

// -- the leaderboard -------------------------------------------------------------------

async function leaderboard(game, offset = 0) {
  await navigation(game);
  const board = await api(`/api/ratings/${encodeURIComponent(game)}?limit=${PAGE}&offset=${offset}`);
  document.title = `${board.title} leaderboard — matanui`;
  const rows = board.players.map((p) => el("tr", {},
    el("td", {}, String(p.rank)), el("td", {}, el("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name)),
    el("td", { class: "number" }, ratingCell(p)), el("td", { class: "number" }, String(Math.round(p.rd))),
    el("td", { class: "number" }, String(p.games))));
  const bots = board.bots.map((b) => el("tr", { class: "reference" },
    el("td", {}, "—"), el("td", {}, `Bot (${b.level})`), el("td", { class: "number" }, String(Math.round(b.rating))),
    el("td", { class: "number" }, "fixed"), el("td", { class: "number" }, "arena")));
  const table = el("table", { class: "leaderboard" },
    el("caption", {}, `${board.title}: ${board.total} player${board.total === 1 ? "" : "s"} with an established rating`),
    el("thead", {}, el("tr", {}, ...["#", "Player", "Rating", "RD", "Games"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 5 }, "No player has an established rating yet."))])),
    el("tbody", { "aria-label": "Bots (reference ratings)" }, ...bots));
  main.replaceChildren(el("h2", {}, `${board.title} leaderboard`), table,
    el("p", { class: "small" }, `Listed: players with ${board.proven_games} rated games against ${board.proven_opponents} different opponents ` +
      `and an RD (the deviation) of at most ${board.provisional_rd}; until then a rating is provisional, marked ?, and not listed. ` +
      "Bot rows are fixed reference ratings measured in the arena (medium = 1500); games against bots are not rated."),
    pager(offset, board.total, (next) => leaderboard(game, next)));
}

function pager(offset, total, go) {
  const nav = el("nav", { class: "pager", "aria-label": "Pages" });
  if (offset > 0) nav.append(el("button", { type: "button", onclick: () => go(Math.max(0, offset - PAGE)) }, "Previous"));
  if (offset + PAGE < total) nav.append(el("button", { type: "button", onclick: () => go(offset + PAGE) }, "Next"));
  return nav;
}

// -- the profile -------------------------------------------------------------------------

const WIDTH = 640, HEIGHT = 260, LEFT = 68, RIGHT = 16, TOP = 16, BOTTOM = 44;

// The rating after each rated game, in order, with the band of one RD either side.
function plot(title, history) {
  const low = Math.min(...history.map((p) => p.rating - p.rd)), high = Math.max(...history.map((p) => p.rating + p.rd));
  const span = Math.max(high - low, 1);
  const x = (i) => LEFT + (history.length === 1 ? (WIDTH - LEFT - RIGHT) / 2 : (i * (WIDTH - LEFT - RIGHT)) / (history.length - 1));
  const y = (r) => TOP + ((high - r) * (HEIGHT - TOP - BOTTOM)) / span;
  const first = history[0], last = history[history.length - 1];
  const id = `plot-${title.replace(/\W/g, "")}`;
  const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", class: "rating-plot", "aria-labelledby": `${id}-t ${id}-d` });
  chart.append(svg("title", { id: `${id}-t` }, `${title}: rating history`),
    svg("desc", { id: `${id}-d` }, `${history.length} rated game${history.length === 1 ? "" : "s"}, from ${Math.round(first.rating)} ` +
      `on ${whenText(first.at)} to ${Math.round(last.rating)} on ${whenText(last.at)}; lowest ${Math.round(Math.min(...history.map((p) => p.rating)))}, ` +
      `highest ${Math.round(Math.max(...history.map((p) => p.rating)))}.`));
  const band = history.map((p, i) => `${x(i)},${y(p.rating + p.rd)}`).concat(history.map((p, i) => `${x(i)},${y(p.rating - p.rd)}`).reverse());
  chart.append(svg("polygon", { points: band.join(" "), class: "band" }));
  for (const r of [low, (low + high) / 2, high]) {
    chart.append(svg("line", { x1: LEFT, x2: WIDTH - RIGHT, y1: y(r), y2: y(r), class: "grid" }),
      svg("text", { x: LEFT - 6, y: y(r) + 4, "text-anchor": "end", class: "tick" }, String(Math.round(r))));
  }
  chart.append(svg("polyline", { points: history.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "line" }));
  history.forEach((p, i) => chart.append(svg("circle", { cx: x(i), cy: y(p.rating), r: 3, class: "point" })));
  chart.append(svg("text", { x: (LEFT + WIDTH - RIGHT) / 2, y: HEIGHT - 8, "text-anchor": "middle", class: "axis" }, "Rated games, oldest to newest"),
    svg("text", { x: 14, y: (TOP + HEIGHT - BOTTOM) / 2, "text-anchor": "middle", class: "axis",
      transform: `rotate(-90 14 ${(TOP + HEIGHT - BOTTOM) / 2})` }, "Rating"));
  return chart;
}

async function profile(name, offset = 0) {
  const catalog = await navigation(null);
  const title = (id) => catalog.find((g) => g.id === id)?.title || id;
  const player = await api(`/api/players/${encodeURIComponent(name)}?limit=${PAGE}&offset=${offset}`);
  document.title = `${player.name} — matanui`;
  const sections = Object.entries(player.ratings).map(([game, r]) => el("section", { class: "rating-game", "aria-label": title(game) },
    el("h3", {}, el("a", { href: `/ratings/${game}` }, title(game))),
    el("p", {}, `Rating ${ratingCell(r)} (RD ${Math.round(r.rd)}) after ${r.games} rated game${r.games === 1 ? "" : "s"}`),
    plot(title(game), r.history)));
  const games = player.games.map((g) => el("tr", {},
    el("td", {}, el("a", { href: `/games/${g.game_id}/replay`, title: "Replay this game" }, whenText(g.at))), el("td", {}, title(g.game)),
    el("td", {}, g.opponents.length ? g.opponents.join(", ") : "—"),
    el("td", {}, g.result === "won" ? "Won" : g.result === "lost" ? "Lost" : "Draw"),
    el("td", { class: "number" }, `${Math.round(g.rating)} (${g.change >= 0 ? "+" : ""}${Math.round(g.change)})`)));
  main.replaceChildren(el("h2", {}, player.name),
    ...(sections.length ? sections : [el("p", {}, "No rated games yet.")]),
    el("table", { class: "leaderboard" }, el("caption", {}, `Rated games (${player.total}), newest first`),
      el("thead", {}, el("tr", {}, ...["Date (replay)", "Game", "Against", "Result", "Rating"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...games)),
    pager(offset, player.total, (next) => profile(name, next)));
}

(page === "ratings" ? leaderboard(part) : profile(part)).catch((error) => failed(error.message));
