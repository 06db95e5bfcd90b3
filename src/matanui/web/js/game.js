// The game page: one WebSocket per seat this browser holds (several in hot-seat, none for a
// spectator, who gets one public connection). The server sends each connection its own view;
// this page draws the view of the seat to decide (hot-seat) or of the only seat it holds.
import { api, appendLog, boardView, dataText, el, heldTokens, pictureBook, playerName, rememberTokens, tokensFor } from "./common.js";

const gameId = location.pathname.split("/")[2];
const watching = new URLSearchParams(location.search).has("watch");
const tokens = watching ? [] : tokensFor(gameId);
const $ = (id) => document.getElementById(id);

// `live`: welcomed on an open socket; while any connection is not, the page says it is
// reconnecting and takes no action. `failures` spaces out the tries to reconnect.
const connections = (tokens.length ? tokens : [null]).map((token) => ({ token, seat: null, view: null, log: [], live: false, failures: 0 }));
let meta = null;       // from the welcome: game, title, players, seats, rematch
let book = null;       // the game's picture book
let view = null;       // the board view module
let shownSeat = null;  // whose view is on the screen (hot-seat: changes hands behind a cover)
let coverFor = null;   // hot-seat: the seat waiting behind the cover
let problem = "";     // the last refusal, until the next view
let notice = "";      // what stays on screen: this browser's link opened no seat
let gone = "";        // the game is gone from the server (closed 4404 or 4410): nothing more comes
let waiting = "";     // refused for a limit: the words to show until it is tried again
let shownObs = null;  // the observation on the screen

function connect(connection, delay = 0) {
  setTimeout(() => {
    const protocol = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${protocol}://${location.host}/ws/games/${gameId}`);
    connection.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify(connection.token ? { type: "hello", token: connection.token } : { type: "hello" }));
    ws.onmessage = (message) => receive(connection, JSON.parse(message.data));
    ws.onclose = (event) => {
      connection.ws = null;
      connection.live = false;
      if (event.code === 4404) return fail("This game is gone: the server has no such game (a game nobody plays expires).");
      if (event.code === 4410) return fail("This game has expired: nobody played it for a long time.");
      if (event.code === 4429) {
        // Refused for a limit (too many connections, too fast): say so, and wait before trying again.
        waiting = `${event.reason || "Too many connections"} — trying again in 10 seconds…`;
        showState();
        return connect(connection, 10_000);
      }
      draw();
      showState();
      connect(connection, Math.min(5000, 250 * 2 ** connection.failures++));
    };
  }, delay);
}

async function receive(connection, message) {
  if (message.type === "welcome") {
    meta = message;
    connection.seat = message.seat;
    connection.log = message.events;
    connection.view = message;
    connection.live = true;
    connection.failures = 0;
    waiting = "";
    book = book || (await pictureBook(message.game, message.data));
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

function fail(text) {
  gone = text;
  draw();
  showState();
  if (!meta) $("turn-title").textContent = "No game to show";
}

function status(text) { $("status").textContent = text; }
const down = () => connections.some((c) => !c.live);
function disableActions() { for (const button of document.querySelectorAll("[data-action]")) button.disabled = true; }

// The header's status: the game gone, the connection down, a limit waited out, or else who
// is at the table (and the last refusal or a lasting notice).
function showState() {
  const line = $("status");
  line.classList.toggle("reconnecting", !gone && down());
  if (gone) {
    line.replaceChildren(gone, " ", el("a", { href: "/" }, "Back to the lobby"));
  } else if (waiting) {
    status(waiting);
  } else if (down()) {
    status("Connection lost — reconnecting…");
  } else if (meta && book && shownObs) {
    const obs = shownObs;
    const online = (meta.seats || []).map((s, i) => `${playerName(book, obs, i, meta.seats)}${s.kind === "bot" ? ` (bot, ${s.level})` : s.online ? "" : " (away)"}`);
    status([notice, problem || online.join(" · ")].filter(Boolean).join(" "));
  }
  line.classList.toggle("bad", Boolean(gone || problem || notice));
}

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
  const obs = shownObs = current.observation;
  document.title = `matanui — ${meta.title}`;
  // Watching a game this browser holds a seat in (a ?watch link): never a silent downgrade.
  const resume = watching && heldTokens(gameId).length
    ? [" ", el("a", { href: `/games/${gameId}`, class: "resume" }, "Resume your seat")] : [];
  $("title").replaceChildren(el("strong", {}, meta.title), " ",
    el("span", { class: "small" }, connection.seat === null ? "(watching)" : `(you: ${playerName(book, obs, connection.seat, meta.seats)})`), ...resume,
    ...(meta.data ? [" ", el("span", { class: "small data-pack" }, `· ${dataText(meta.data)}`)] : []));
  showState();

  const cover = $("cover");
  cover.hidden = coverFor === null;
  if (coverFor !== null) $("cover-text").textContent = `Pass the screen to ${playerName(book, obs, coverFor, meta.seats)}.`;

  const legal = current.legal || [];
  const act = (id) => {
    if (gone || down()) return;
    connection.ws?.send(JSON.stringify({ type: "act", action: id, at: current.at }));
    disableActions();
  };
  // While the connection is down (or the game gone) the board offers nothing to click.
  const offline = Boolean(gone) || down();
  view.render($("board"), obs, { book, seat: connection.seat, legal: offline ? [] : legal, act, players: meta.players, seats: meta.seats });
  drawTurn(current, connection, legal, act, obs);
  appendLog($("log"), connection.log, { clear: true });
  if (offline) disableActions();
}

function drawTurn(current, connection, legal, act, obs) {
  const list = $("actions");
  list.replaceChildren();
  if (current.over) {
    const winners = current.winners.map((s) => playerName(book, obs, s, meta.seats));
    $("turn-title").textContent = winners.length ? `${winners.join(" and ")} won!` : "The game is drawn.";
    drawOver(connection);
    return;
  }
  $("over").hidden = true;
  const who = current.current_player;
  if (connection.seat === null) $("turn-title").textContent = `${playerName(book, obs, who, meta.seats)} to decide`;
  else if (!legal.length) $("turn-title").textContent = `Waiting for ${playerName(book, obs, who, meta.seats)}…`;
  else $("turn-title").textContent = down() && !gone ? "Your decision (reconnecting…)" : "Your decision";
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
