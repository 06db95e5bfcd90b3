// The game page: one WebSocket per seat this browser holds (several in hot-seat, none for a
// spectator, who gets one public connection). The server sends each connection its own view;
// this page draws the view of the seat to decide (hot-seat) or of the only seat it holds.
import { api, appendLog, boardView, el, pictureBook, playerName, rememberTokens, tokensFor } from "./common.js";

const gameId = location.pathname.split("/")[2];
const watching = new URLSearchParams(location.search).has("watch");
const tokens = watching ? [] : tokensFor(gameId);
const $ = (id) => document.getElementById(id);

const connections = (tokens.length ? tokens : [null]).map((token) => ({ token, seat: null, view: null, log: [] }));
let meta = null;       // from the welcome: game, title, players, seats, rematch
let book = null;       // the game's picture book
let view = null;       // the board view module
let shownSeat = null;  // whose view is on the screen (hot-seat: changes hands behind a cover)
let coverFor = null;   // hot-seat: the seat waiting behind the cover
let problem = "";     // the last refusal, until the next view
let notice = "";      // what stays on screen: this browser's link opened no seat

function connect(connection, delay = 0) {
  setTimeout(() => {
    const protocol = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${protocol}://${location.host}/ws/games/${gameId}`);
    connection.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify(connection.token ? { type: "hello", token: connection.token } : { type: "hello" }));
    ws.onmessage = (message) => receive(connection, JSON.parse(message.data));
    ws.onclose = (event) => {
      connection.ws = null;
      if (event.code === 4404) return fail("There is no such game.");
      if (event.code === 4410) return fail("This game was closed: nobody played it for a long time.");
      if (event.code === 4429) {
        // Refused for a limit (too many connections, too fast): say so, and wait before trying again.
        status(`${event.reason || "Too many connections"} — trying again in 10 seconds…`);
        return connect(connection, 10_000);
      }
      status("Connection lost — reconnecting…");
      connect(connection, Math.min(5000, 500 + delay * 2));
    };
  }, delay);
}

async function receive(connection, message) {
  if (message.type === "welcome") {
    meta = message;
    connection.seat = message.seat;
    connection.log = message.events;
    connection.view = message;
    book = book || (await pictureBook(message.game));
    $("how-to-play").href = book.how_to_play;
    view = view || (await boardView(message.game));
    problem = "";
  } else if (message.type === "update") {
    connection.view = message;
    connection.log = connection.log.concat(message.events);
  } else if (message.type === "seats") {
    if (meta) meta.seats = message.seats;
  } else if (message.type === "rematch") {
    if (meta) meta.rematch = message.game_id;
  } else if (message.type === "error") {
    if (message.code === "bad_token") {
      // A token that opens nothing (an old or mistyped link): the server lets this
      // connection watch, and the page says so for as long as it is open.
      localStorage.removeItem(`matanui:tokens:${gameId}`);
      connection.token = null;
      notice = "This invite link is not valid for this game; you are watching.";
    } else {
      problem = message.message;
    }
  }
  draw();
}

function fail(text) { status(text); }
function status(text) { $("status").textContent = text; }

function chooseShown() {
  // Hot-seat: wait for every seat's welcome, or the first to arrive would be shown and then
  // covered at once for the seat actually to decide.
  if (connections.some((c) => !c.view)) return null;
  const seated = connections.filter((c) => c.view && c.seat !== null);
  if (!seated.length) return connections.find((c) => c.view) || null;
  const current = seated[0].view.current_player;
  const deciding = seated.find((c) => c.seat === current);
  if (seated.length > 1 && deciding && deciding.seat !== shownSeat && shownSeat !== null && !seated[0].view.over) {
    coverFor = deciding.seat;   // hot-seat: hide the old view until the next person is ready
  }
  if (deciding && coverFor === null) shownSeat = deciding.seat;
  if (shownSeat === null) shownSeat = seated[0].seat;
  return seated.find((c) => c.seat === shownSeat);
}

function draw() {
  const connection = chooseShown();
  if (!connection || !meta || !view) return;
  const current = connection.view;
  const obs = current.observation;
  document.title = `matanui — ${meta.title}`;
  $("title").replaceChildren(el("strong", {}, meta.title), " ",
    el("span", { class: "small" }, connection.seat === null ? "(watching)" : `(you: ${playerName(book, obs, connection.seat)})`));
  const online = (meta.seats || []).map((s, i) => `${playerName(book, obs, i)}${s.kind === "bot" ? ` (bot, ${s.level})` : s.online ? "" : " (away)"}`);
  status([notice, problem || online.join(" · ")].filter(Boolean).join(" "));
  $("status").classList.toggle("bad", Boolean(problem || notice));

  const cover = $("cover");
  cover.hidden = coverFor === null;
  if (coverFor !== null) $("cover-text").textContent = `Pass the screen to ${playerName(book, obs, coverFor)}.`;

  const legal = current.legal || [];
  const act = (id) => {
    connection.ws?.send(JSON.stringify({ type: "act", action: id, at: current.at }));
    for (const button of document.querySelectorAll("[data-action]")) button.disabled = true;
  };
  view.render($("board"), obs, { book, seat: connection.seat, legal, act, players: meta.players, seats: meta.seats });
  drawTurn(current, connection, legal, act, obs);
  appendLog($("log"), connection.log, { clear: true });
}

function drawTurn(current, connection, legal, act, obs) {
  const list = $("actions");
  list.replaceChildren();
  if (current.over) {
    const winners = current.winners.map((s) => playerName(book, obs, s));
    $("turn-title").textContent = winners.length ? `${winners.join(" and ")} won!` : "The game is drawn.";
    drawOver(connection);
    return;
  }
  $("over").hidden = true;
  const who = current.current_player;
  if (connection.seat === null) $("turn-title").textContent = `${playerName(book, obs, who)} to decide`;
  else if (!legal.length) $("turn-title").textContent = `Waiting for ${playerName(book, obs, who)}…`;
  else $("turn-title").textContent = "Your decision";
  for (const action of legal) {
    list.append(el("li", {}, el("button", {
      dataset: { action: action.id }, title: action.id, onclick: () => act(action.id),
      onmouseenter: () => highlight(action.id, true), onmouseleave: () => highlight(action.id, false),
    }, action.text)));
  }
}

function highlight(id, on) {
  for (const node of document.querySelectorAll(`#board [data-actions~="${CSS.escape(id)}"]`)) node.classList.toggle("hint", on);
}

function drawOver(connection) {
  const over = $("over");
  over.hidden = false;
  const replay = el("a", { href: `/games/${gameId}/replay`, class: "button" }, "Replay this game");
  const buttons = [replay];
  if (meta.rematch) {
    buttons.unshift(el("a", { href: `/games/${meta.rematch}`, class: "button primary", onclick: () => rememberTokens(meta.rematch, tokens) }, "Go to the rematch"));
  } else if (connection.token) {
    buttons.unshift(el("button", { class: "primary", onclick: async () => {
      try {
        const next = await api(`/api/games/${gameId}/rematch`, { method: "POST", body: JSON.stringify({ token: connection.token }) });
        rememberTokens(next.id, tokens);
        location.href = `/games/${next.id}`;
      } catch (error) { status(error.message); }
    } }, "Rematch"));
  }
  over.replaceChildren(...buttons);
}

$("cover-button").addEventListener("click", () => { shownSeat = coverFor; coverFor = null; draw(); });
for (const connection of connections) connect(connection);
