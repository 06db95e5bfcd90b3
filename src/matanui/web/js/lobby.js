// The lobby: the form that creates a game (its seats, people or bots, and options) and the
// list of open, running and finished games.
import { api, el, rememberTokens } from "./common.js";

const $ = (id) => document.getElementById(id);
let catalog = [];

function currentGame() { return catalog.find((g) => g.id === $("game-select").value); }

function seatRow(game, index, kind) {
  const characters = ["", ...game.characters];
  return el("div", { class: "seat-row", dataset: { seat: index } },
    el("span", { class: "n" }, `Player ${index + 1}`),
    el("select", { name: "kind", "aria-label": `Player ${index + 1} is` },
      el("option", { value: "human", selected: kind === "human" }, "Person"),
      el("option", { value: "open", selected: kind === "open" }, "Open seat"),
      el("option", { value: "bot", selected: kind === "bot" }, "Bot")),
    el("select", { name: "level", "aria-label": `Player ${index + 1} bot level` },
      game.levels.map((level) => el("option", { value: level, selected: level === "medium" }, level))),
    el("select", { name: "character", "aria-label": `Player ${index + 1} character` },
      characters.map((c) => el("option", { value: c }, c || "any character"))));
}

function drawForm() {
  const game = currentGame();
  const seats = $("seats");
  seats.replaceChildren();
  for (let i = 0; i < game.min_players; i += 1) seats.append(seatRow(game, i, i === 0 ? "human" : "bot"));
  $("add-seat").hidden = game.max_players === game.min_players;
  const options = $("options");
  options.replaceChildren(el("legend", {}, "Options"));
  for (const [key, help] of Object.entries(game.options)) {
    options.append(el("label", {}, `${key} `, el("input", { type: "text", name: `option:${key}`, placeholder: "default" }),
      el("div", { class: "small" }, help)));
  }
}

function readForm() {
  const game = currentGame();
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => {
    const get = (name) => row.querySelector(`[name=${name}]`).value;
    return { kind: get("kind"), level: get("level"), ...(get("character") ? { character: get("character") } : {}) };
  });
  const options = {};
  for (const input of document.querySelectorAll("[name^='option:']")) {
    if (!input.value.trim()) continue;
    let value = input.value.trim();
    try { value = JSON.parse(value); } catch { /* a plain word, such as rps */ }
    options[input.name.slice(7)] = value;
  }
  return { game: game.id, seats, options, hotseat: $("hotseat").checked, public: $("public").checked };
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  try {
    const created = await api("/api/games", { method: "POST", body: JSON.stringify(readForm()) });
    showCreated(created);
    refresh();
  } catch (error) {
    $("create-error").textContent = error.message;
  }
}

function showCreated(created) {
  const box = $("created");
  box.hidden = false;
  const absolute = (link) => new URL(link, location.href).href;
  const items = [];
  if (created.hotseat_link) {
    items.push(el("a", { class: "button primary", href: created.hotseat_link }, "Play (hot-seat, this screen)"));
  } else {
    const humans = created.seats.filter((s) => s.token);
    humans.forEach((seat, i) => {
      items.push(el("div", {}, el("strong", {}, `Player ${seat.seat + 1} (${seat.character}) `),
        i === 0 ? el("a", { class: "button primary", href: seat.link, onclick: () => rememberTokens(created.id, [seat.token]) }, "Play this seat") : "",
        el("input", { type: "text", readonly: true, value: absolute(seat.link), "aria-label": `invite link for Player ${seat.seat + 1}`, onfocus: (e) => e.target.select() })));
    });
    for (const seat of created.seats.filter((s) => s.kind === "open")) {
      items.push(el("div", {}, el("strong", {}, `Player ${seat.seat + 1} (${seat.character}) `),
        el("span", { class: "small" }, "open: anyone in the lobby may join this seat")));
    }
  }
  items.push(el("a", { class: "button", href: created.spectator_link + "?watch" }, "Watch"));
  box.replaceChildren(el("h3", {}, "Game created"), el("p", { class: "small" },
    "Each link is a seat's secret: send it only to the person who plays that seat."), el("div", { class: "links" }, items));
}

async function join(gameId) {
  try {
    const seat = await api(`/api/games/${gameId}/join`, { method: "POST" });
    rememberTokens(gameId, [seat.token]);
    location.href = `/games/${gameId}`;
  } catch (error) { alert(error.message); }
}

// The list comes a page at a time (GET /api/games?limit=&before=): the header Link names the
// next page. The lobby shows as many pages as the person asked for with "More games".
let pagesWanted = 1;

async function fetchPage(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status}`);
  const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") || "");
  return { games: await response.json(), next: next ? next[1] : null };
}

async function fetchGames() {
  const games = [];
  let url = "/api/games";
  for (let page = 0; url && page < pagesWanted; page += 1) {
    const got = await fetchPage(url);
    games.push(...got.games);
    url = got.next;
  }
  return { games, more: Boolean(url) };
}

async function refresh() {
  let games, more;
  try { ({ games, more } = await fetchGames()); } catch { return; }
  const list = $("game-list");
  if (!games.length) { list.replaceChildren(el("li", { class: "empty" }, "No games yet: create one.")); return; }
  const moreButton = more ? [el("li", {}, el("button", { onclick: () => { pagesWanted += 1; refresh(); } }, "More games"))] : [];
  list.replaceChildren(...games.map((g) => {
    const seats = g.players.map((p, i) => `${p}${g.seats[i].kind === "bot" ? ` (bot ${g.seats[i].level})` : ""}`).join(" vs ");
    const buttons = [];
    if (g.status === "open") buttons.push(el("button", { class: "primary", onclick: () => join(g.id) }, "Join"));
    if (g.status !== "finished") buttons.push(el("a", { class: "button", href: `/games/${g.id}?watch` }, "Watch"));
    buttons.push(el("a", { class: "button", href: `/games/${g.id}/replay` }, "Replay"));
    return el("li", {}, el("span", { class: `badge ${g.status}` }, g.status),
      el("span", { class: "what" }, el("strong", {}, g.title), " ", el("span", { class: "small" }, `${seats} · ${g.at} actions`)),
      ...buttons);
  }), ...moreButton);
}

async function start() {
  catalog = await api("/api/catalog");
  $("how-to-play").replaceChildren("How to play: ", ...catalog.flatMap((g, i) =>
    [i ? " · " : "", el("a", { href: g.how_to_play }, g.title)]));
  $("game-select").replaceChildren(...catalog.map((g) => el("option", { value: g.id }, g.title)));
  $("game-select").addEventListener("change", drawForm);
  $("add-seat").addEventListener("click", () => {
    const game = currentGame();
    const count = document.querySelectorAll(".seat-row").length;
    if (count < game.max_players) $("seats").append(seatRow(game, count, "bot"));
  });
  $("create-form").addEventListener("submit", create);
  drawForm();
  refresh();
  setInterval(refresh, 4000);
}

start();
