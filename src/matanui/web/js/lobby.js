// The lobby: the games this browser holds a seat in, each game's card (intro.js), the form
// that creates a game your way (its seats, people or bots, and its options, drawn from each
// game's option schema in the catalog), and the list of open, running, abandoned and finished
// games. On a phone, quick play and your games come first and the rest is folded.
import { api, dataText, el, forgetTokens, heldGames, heldTokens, rememberTokens } from "./common.js";
import { PACE_NAMES, PACES, paceText, rememberSeats, yourTurn } from "./clock.js";
import { accountGames, claim, loadSession, mountAccount, session } from "./account.js";
import { drawGameCards } from "./intro.js";
import { ratingText } from "./seatrating.js";

const $ = (id) => document.getElementById(id);
let catalog = [];
const NAME_CHARS = 24; // SeatSpec.name's limit on the server
const PHONE = window.matchMedia("(max-width: 760px)");
const YOURS_SHOWN = 3;  // your games listed before "N more of your games" (your turn first)

// The options in a player's words (the catalog's are the rules' own), and the few that wait
// under "More options": the variants made for research and the turn limit.
const OPTION_WORDS = {
  advanced: { label: "Advanced rules" },
  first_player: { label: "Who plays first", help: "the server plays Rock-Paper-Scissors for you, or you choose" },
  map: { label: "Map" },
  short: { label: "Short game" },
  turn_limit: { label: "End the game in a draw after", unit: "turns", more: true,
    help: "if nobody has won by then" },
  variant: { label: "Rules", more: true,
    choices: { full: "Full game", mini: "Mini game for research (not the rulebook’s)" } },
};

function currentGame() { return catalog.find((g) => g.id === $("game-select").value); }

// A character as players know it ("Tahu Nuva"), from the catalog.
function characterName(gameId, character) {
  return catalog.find((g) => g.id === gameId)?.character_names[character] || character;
}

// Only what a seat of its kind uses is shown: a bot's level for a bot, a name for a person.
function showSeatFields(row) {
  const kind = row.querySelector("[name=kind]").value;
  row.querySelector("[name=level]").hidden = kind !== "bot";
  row.querySelector("[name=name]").hidden = kind !== "human";
}

function seatRow(game, index, kind) {
  const label = `Player ${index + 1}`;
  const row = el("div", { class: "seat-row", dataset: { seat: index } },
    el("span", { class: "n" }, label),
    el("select", { name: "kind", "aria-label": `${label} is`, onchange: () => showSeatFields(row) },
      el("option", { value: "human", selected: kind === "human" }, "Person"),
      el("option", { value: "open", selected: kind === "open" }, "Open seat"),
      el("option", { value: "bot", selected: kind === "bot" }, "Bot")),
    el("input", { type: "text", name: "name", maxlength: NAME_CHARS, placeholder: "name (optional)",
      "aria-label": `${label} display name`, autocomplete: "nickname" }),
    el("select", { name: "level", "aria-label": `${label} bot level` },
      game.levels.map((level) => el("option", { value: level, selected: level === "medium" }, level))),
    el("select", { name: "character", "aria-label": `${label} character` },
      el("option", { value: "" }, "any character"),
      game.characters.map((c) => el("option", { value: c }, game.character_names[c]))));
  showSeatFields(row);
  return row;
}

const seatCount = () => document.querySelectorAll(".seat-row").length;
const defaultOf = (option, players) => option.default_per_player ? option.default_per_player * players : option.default;

// One typed control per option, in a player's words (OPTION_WORDS), with its help beside it.
function optionControl(key, option, players) {
  const id = `option-${key}`;
  const words = OPTION_WORDS[key] || {};
  const common = { id, name: `option:${key}`, "aria-describedby": `${id}-help` };
  let input;
  if (option.kind === "bool") {
    input = el("input", { ...common, type: "checkbox", checked: option.default });
  } else if (option.kind === "int") {
    input = el("input", { ...common, type: "number", min: option.min, max: option.max, step: 1, required: true,
      value: defaultOf(option, players), oninput: (e) => { e.target.dataset.edited = "yes"; } });
  } else {
    input = el("select", common, option.choices.map((choice, i) =>
      el("option", { value: String(i), selected: choice === option.default }, words.choices?.[choice] || option.labels[i])));
  }
  const range = option.kind === "int" ? ` (${option.min} to ${option.max}` +
    (option.default_per_player ? `; ${option.default_per_player} per player unless changed)` : ")") : "";
  return el("div", { class: `option option-${option.kind}` },
    el("label", { for: id }, words.label || key.replaceAll("_", " ")), input,
    words.unit ? el("span", { class: "unit" }, words.unit) : "",
    el("span", { class: "small help", id: `${id}-help` }, (words.help || option.help) + range));
}

// The game's options: the usual ones in the form, the research variants and the turn limit
// under "More options" (each part hidden when the game has none).
function drawOptions() {
  const game = currentGame();
  const [usual, more] = [$("options"), $("more-option-list")];
  usual.replaceChildren(el("legend", {}, "Options"));
  more.replaceChildren();
  for (const [key, option] of Object.entries(game.options)) {
    (OPTION_WORDS[key]?.more ? more : usual).append(optionControl(key, option, seatCount()));
  }
  usual.hidden = !usual.querySelector(".option");
  $("more-options").hidden = !more.children.length;
}

// A default that grows with the players follows the seats, until the person changes it.
function followSeatCount() {
  const game = currentGame();
  for (const [key, option] of Object.entries(game.options)) {
    const input = $(`option-${key}`);
    if (option.default_per_player && !input.dataset.edited) input.value = defaultOf(option, seatCount());
  }
}

// What each bot level is, in plain words; how it scored against the levels below in this game
// sits behind "How we measured the bots" (the catalog's words for both).
function drawLevelNotes(game) {
  const words = game.level_words;
  $("bot-levels").replaceChildren(...game.levels.map((level) =>
    el("li", {}, el("b", {}, level), ` — ${words[level].what}`)));
  $("bot-figures").replaceChildren(...game.levels.map((level) =>
    el("li", {}, el("b", {}, level), ` — ${words[level].measured}`)));
}

function drawForm() {
  const game = currentGame();
  const seats = $("seats");
  seats.replaceChildren();
  for (let i = 0; i < game.min_players; i += 1) seats.append(seatRow(game, i, i === 0 ? "human" : "bot"));
  $("add-seat").hidden = game.max_players === game.min_players;
  drawLevelNotes(game);
  drawOptions();
  drawData(game);
}

// The data packs the server offers for this game (`matanui serve --data-dir`); the choice is
// shown only when there is one to make.
function drawData(game) {
  const select = $("data-select");
  select.replaceChildren(el("option", { value: "" }, "built-in (our reconstruction)"),
    ...game.packs.map((p) => el("option", { value: p.hash }, `data pack “${p.name}”`)));
  $("data-label").hidden = !game.packs.length;
}

// Only the options that differ from their defaults are sent: the server fills in the rest.
function readOptions(game, players) {
  const options = {};
  for (const [key, option] of Object.entries(game.options)) {
    const input = $(`option-${key}`);
    const value = option.kind === "bool" ? input.checked
      : option.kind === "int" ? Number(input.value) : option.choices[Number(input.value)];
    if (value !== defaultOf(option, players)) options[key] = value;
  }
  return options;
}

function readForm() {
  const game = currentGame();
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => {
    const get = (name) => row.querySelector(`[name=${name}]`).value;
    const kind = get("kind");
    return { kind, ...(kind === "bot" ? { level: get("level") } : {}),
      ...(kind === "human" && get("name").trim() ? { name: get("name").trim() } : {}),
      ...(get("character") ? { character: get("character") } : {}) };
  });
  const data = $("data-select").value;
  const pace = PACES[Number($("pace-select").value)]?.pace;
  return { game: game.id, seats, options: readOptions(game, seats.length), hotseat: $("hotseat").checked, public: $("public").checked,
    ...($("hints").checked ? { hints: true } : {}), ...($("rated").checked ? { rated: true } : {}),
    ...(data ? { data } : {}), ...(pace ? { pace } : {}) };
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  try {
    const form = readForm();
    const created = await api("/api/games", { method: "POST", body: JSON.stringify(form) });
    // The creator's seat (every person's seat, hot-seat) is this browser's from now on: it is
    // listed under "Your games" whether or not its link is followed now.
    const mine = created.seats.filter((seat) => seat.token).map((seat) => seat.token);
    if (mine.length) rememberTokens(created.id, created.hotseat_link ? mine : mine.slice(0, 1));
    const seats = created.seats.filter((seat) => seat.token).map((seat) => seat.seat);
    rememberSeats(created.id, created.hotseat_link ? seats : seats.slice(0, 1));
    showCreated(created, form.game);
    refresh();
  } catch (error) {
    $("create-error").textContent = error.message;
  }
}

function showCreated(created, gameId) {
  const box = $("created");
  box.hidden = false;
  const absolute = (link) => new URL(link, location.href).href;
  const items = [];
  if (created.hotseat_link) {
    items.push(el("a", { class: "button primary", href: created.hotseat_link }, "Play (hot-seat, this screen)"));
  } else {
    const humans = created.seats.filter((s) => s.token);
    humans.forEach((seat, i) => {
      items.push(el("div", {}, el("strong", {}, `Player ${seat.seat + 1} (${characterName(gameId, seat.character)}) `),
        i === 0 ? el("a", { class: "button primary", href: seat.link }, "Play this seat") : "",
        el("input", { type: "text", readonly: true, value: absolute(seat.link), "aria-label": `invite link for Player ${seat.seat + 1}`, onfocus: (e) => e.target.select() })));
    });
    for (const seat of created.seats.filter((s) => s.kind === "open")) {
      items.push(el("div", {}, el("strong", {}, `Player ${seat.seat + 1} (${characterName(gameId, seat.character)}) `),
        el("span", { class: "small" }, "open: anyone in the lobby may join this seat")));
    }
  }
  items.push(el("a", { class: "button", href: created.spectator_link + "?watch" }, "Watch"));
  box.replaceChildren(el("h3", {}, "Game created"), el("p", { class: "small" },
    "Each link is a seat's secret: send it only to the person who plays that seat."), el("div", { class: "links" }, items));
}

// Joining an open seat asks for an optional display name; the body is sent only when one was
// typed, so that a server that takes no body still answers.
function joinForm(gameId) {
  const error = el("p", { class: "error small", role: "alert" });
  const name = el("input", { type: "text", maxlength: NAME_CHARS, placeholder: "your name (optional)",
    "aria-label": "Your display name (optional)", autocomplete: "nickname" });
  const submit = async (event) => {
    event.preventDefault();
    const typed = name.value.trim();
    try {
      const seat = await api(`/api/games/${gameId}/join`, { method: "POST", ...(typed ? { body: JSON.stringify({ name: typed }) } : {}) });
      rememberTokens(gameId, [seat.token]);
      rememberSeats(gameId, [seat.seat]);
      location.href = `/games/${gameId}`;
    } catch (failure) { error.textContent = `Could not join: ${failure.message}`; }
  };
  return el("form", { class: "join-form", onsubmit: submit }, name, el("button", { class: "primary", type: "submit" }, "Join"), error);
}

function join(gameId, button) {
  const form = joinForm(gameId);
  button.replaceWith(form);
  form.querySelector("input").focus();
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
  const query = new URLSearchParams(Object.entries({ game: $("game-filter").value, pace: $("pace-filter").value }).filter(([, v]) => v));
  let url = `/api/games${query.size ? `?${query}` : ""}`;
  for (let page = 0; url && page < pagesWanted; page += 1) {
    const got = await fetchPage(url);
    games.push(...got.games);
    url = got.next;
  }
  return { games, more: Boolean(url) };
}

// "Tahu Nuva vs Ana · Gali Nuva (bot, medium)": names are text nodes, never markup.
function seatsText(g) {
  return g.players.map((p, i) => {
    const seat = g.seats[i];
    const who = seat.kind === "bot" ? ` (bot, ${seat.level})` : seat.kind === "open" && !seat.claimed ? " (open seat)" : "";
    const shown = seat.name || seat.account;
    return `${shown ? `${shown}${ratingText(seat)} · ` : ""}${characterName(g.game, p)}${who}`;
  }).join(" vs ");
}

// What a row says of a game: "Ana · Tahu Nuva vs Gali Nuva (bot, easy) · 1 move · untimed".
function gameFacts(g) {
  return [seatsText(g), `${g.at} move${g.at === 1 ? "" : "s"}`, paceText(g.pace),
    g.hints_agreed ? "hints for everyone" : null, g.data ? dataText(g.data) : null].filter(Boolean).join(" · ");
}

// Why a game has its status, for the badge's tooltip.
const STATUS_WHY = { abandoned: "Nobody is playing this game now: its players have left, or nobody watches its bots.",
  aborted: "Ended before each player had made two moves: no result, unrated." };

// A listed game, with what a person may do with it (gameButtons). A game held here that
// nobody plays now is one its holder left too (they are one of its people): it says so.
function gameItem(g, held, watch) {
  const status = held && g.status === "abandoned" ? "you left" : g.aborted ? "aborted" : g.status;
  return el("li", { dataset: { game: g.id, status: g.status } },
    el("span", { class: `badge ${g.status}`, title: STATUS_WHY[status] }, status),
    g.rated ? el("span", { class: "badge rated", title: "The result changes its players’ ratings" }, "rated") : "",
    el("span", { class: "what" }, el("strong", {}, g.title), " ",
      el("span", { class: "small" }, gameFacts(g))),
    yourTurn(g) ? el("span", { class: "badge your-turn" }, "your turn") : "",
    ...gameButtons(g, held, watch));
}

const link = (href, text, primary = false) => el("a", { class: primary ? "button primary" : "button", href }, text);

// What a person may do with a listed game: resume a seat held here (a finished game is
// replayed, never resumed), join an open seat, watch a game not over, replay any.
function gameButtons(g, held, watch) {
  const over = g.status === "finished";
  const buttons = [];
  if (held && !over) buttons.push(link(`/games/${g.id}`, "Resume", true));
  else if (!held && g.status === "open") {
    const button = el("button", { class: "primary", onclick: () => join(g.id, button) }, "Join");
    buttons.push(button);
  }
  if (watch && !over) buttons.push(link(`/games/${g.id}?watch`, "Watch"));
  buttons.push(link(`/games/${g.id}/replay`, "Replay"));
  return buttons;
}

let yours = new Set();  // the games the account holds a seat in

async function refresh() {
  refreshYours();
  yours = new Set((await accountGames()).map((g) => g.game_id));
  if (document.querySelector("#game-list .join-form")) return;  // not redrawn under the person typing
  let games, more;
  try { ({ games, more } = await fetchGames()); } catch { return; }
  $("game-list").replaceChildren(...(games.length ? gameRows(games, more) : [el("li", { class: "empty" }, "No games yet: create one.")]));
  drawShowAll();
}

function gameRows(games, more) {
  const rows = games.map((g) => gameItem(g, heldTokens(g.id).length > 0 || yours.has(g.id), true));
  const noneOpen = games.some((g) => g.status === "open") ? [] : [el("li", { class: "none-open small" }, "No game is waiting for a player to join.")];
  const moreButton = more ? [el("li", { class: "more-games" }, el("button", { onclick: () => { pagesWanted += 1; refresh(); } }, "More games"))] : [];
  return [...noneOpen, ...rows, ...moreButton];
}

// On a phone the list shows the open games (a player waits there); the others, being played
// or over, are a tap away (lobby.css hides them until then).
function drawShowAll() {
  const others = document.querySelectorAll("#game-list > li[data-status]:not([data-status=open])").length;
  const button = $("show-all-games");
  const shown = $("games").classList.contains("show-all");
  button.hidden = !others;
  button.setAttribute("aria-expanded", String(shown));
  button.textContent = shown ? "Show only the games open to join" : `Show ${others === 1 ? "the game" : `the ${others} games`} being played or over`;
}

function toggleShowAll() {
  $("games").classList.toggle("show-all");
  drawShowAll();
}

// Your games: every game whose seat token this browser keeps, with its state now. A game the
// server no longer has (it expired) says so, and can be forgotten.
async function refreshYours() {
  const accounts = await accountGames();
  const inAccount = new Set(accounts.map((g) => g.game_id));
  const held = [...new Set([...heldGames(), ...inAccount])];
  const unclaimed = session.account ? heldGames().filter((id) => !inAccount.has(id)) : [];
  $("keep-games").replaceChildren(...(unclaimed.length ? [el("p", { class: "small" },
    `${unclaimed.length} of these games are kept in this browser only. `,
    el("button", { onclick: async () => { await claim(unclaimed.map((id) => ({ id, tokens: heldTokens(id) }))); refreshYours(); } },
      "Keep these games in your account"))] : []));
  const answers = await Promise.all(held.map(async (id) => {
    const response = await fetch(`/api/games/${encodeURIComponent(id)}`).catch(() => null);
    if (!response) return null;
    return response.ok ? response.json() : response.status === 404 ? { id, gone: true } : null;
  }));
  const known = answers.filter(Boolean);
  // Your turn first (by the account, or by the seats this browser holds), then the others;
  // games gone from the server last; each newest first.
  const myTurn = (g) => yourTurn(g) || accounts.some((a) => a.game_id === g.id && a.your_turn);
  known.sort((a, b) => (a.gone ? 1 : 0) - (b.gone ? 1 : 0) || myTurn(b) - myTurn(a) || (b.created || 0) - (a.created || 0));
  $("yours").hidden = !known.length;
  const rows = known.map(yourGame);
  const folded = $("your-games").querySelector(".more-yours details");
  const rest = rows.length > YOURS_SHOWN ? [el("li", { class: "more-yours" },
    el("details", { open: folded?.open }, el("summary", {}, `${rows.length - YOURS_SHOWN} more of your games`),
      el("ul", { class: "game-list" }, rows.slice(YOURS_SHOWN))))] : [];
  $("your-games").replaceChildren(...rows.slice(0, YOURS_SHOWN), ...rest);
}

function yourGame(g) {
  if (!g.gone) return gameItem(g, true, false);
  return el("li", { dataset: { game: g.id } }, el("span", { class: "badge gone" }, "gone"),
    el("span", { class: "what small" }, `Game ${g.id} is no longer on the server (a game nobody plays expires).`),
    el("button", { onclick: () => { forgetTokens(g.id); refreshYours(); } }, "Forget"));
}

// Signed out, the links of the game just created go too: its seats were the account's.
function accountChanged() {
  if (!session.account) {
    $("created").hidden = true;
    $("created").replaceChildren();
  }
  refresh();
}

// On a phone, the form for a game your way starts folded: quick play and your games come first.
function foldForPhone() {
  $("create").open = !PHONE.matches;
}

async function start() {
  await loadSession();
  mountAccount($("account"), accountChanged);
  catalog = await api("/api/catalog");
  drawGameCards(catalog);
  $("how-to-play").replaceChildren("How to play: ", ...catalog.flatMap((g, i) =>
    [i ? " · " : "", el("a", { href: g.how_to_play }, g.title)]));
  $("game-select").replaceChildren(...catalog.map((g) => el("option", { value: g.id }, g.title)));
  $("game-select").addEventListener("change", drawForm);
  $("game-filter").append(...catalog.map((g) => el("option", { value: g.id }, g.title)));
  $("game-filter").addEventListener("change", () => { pagesWanted = 1; refresh(); });
  $("pace-select").replaceChildren(el("option", { value: "" }, "Real-time with others, none alone"),
    ...PACES.map((p, i) => el("option", { value: String(i) }, p.label)));
  $("pace-filter").append(...PACES.map((p) => el("option", { value: p.pace.kind }, PACE_NAMES[p.pace.kind])));
  $("pace-filter").addEventListener("change", () => { pagesWanted = 1; refresh(); });
  $("add-seat").addEventListener("click", () => {
    const game = currentGame();
    const count = seatCount();
    if (count < game.max_players) $("seats").append(seatRow(game, count, "bot"));
    followSeatCount();
  });
  $("create-form").addEventListener("submit", create);
  $("show-all-games").addEventListener("click", toggleShowAll);
  foldForPhone();
  PHONE.addEventListener("change", foldForPhone);
  drawForm();
  refresh();
  setInterval(refresh, 4000);
}

start();
