// The game page: one WebSocket per seat this browser holds (several in hot-seat, none for a
// spectator, who gets one public connection). The server sends each connection its own view;
// this page draws the view of the seat to decide (hot-seat) or of the only seat it holds.
//
// What the page promises a player: the last move is marked and told
// in the `Last move` line; another seat's moves play out one at a time at a readable pace;
// the viewer's own pieces sit in `Your hand` (docked on a phone) whenever `Your decision`
// offers a choice; the end is a dialog from the viewer's side.
import { api, appendLog, boardView, capital, dataText, el, flip, heldTokens, pictureBook, playerName, rememberTokens, tokensFor } from "./common.js";
import { drawClocks, rememberSeats } from "./clock.js";
import { keepSeat, loadSession, session } from "./account.js";
import { showEnd } from "./end.js";
import { drawResign } from "./resign.js";
import { chatPanel, drawPresence } from "./chat.js";
import { nameForm } from "./seatname.js";
import { ratingText } from "./seatrating.js";
import { showTurn } from "./turn.js";
import { drawHint } from "./hint.js";
import { asYou, moveLines } from "./lastmove.js";

const gameId = location.pathname.split("/")[2];
const watching = new URLSearchParams(location.search).has("watch");
const tokens = watching ? [] : tokensFor(gameId);
const $ = (id) => document.getElementById(id);
// Least time another seat's move stays on the screen before the next one is drawn.
const PACE_MS = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? 250 : 700;
// Refusals that only mean the page acted on a position that has moved on (a double click, a
// move that crossed another): the fresh view is on its way, so the page says nothing.
const QUIET = new Set(["stale", "not_your_turn", "game_over"]);

// `live`: welcomed on an open socket; while any connection is not, the page says it is
// reconnecting and takes no action. `failures` spaces out the tries to reconnect.
// `log` holds the game's log from entry `logFrom` on: a welcome brings the newest entries only,
// and "Show earlier" asks for the ones before (a `history` message), a page at a time.
const connections = (tokens.length ? tokens : [null]).map((token) => ({ token, seat: null, view: null, log: [], logFrom: 0, live: false, failures: 0 }));
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
let lastMove = [];    // the events of the latest action, as the shown seat sees them
let endShown = false; // the end dialog has been opened once
let logShown = null;  // the connection whose log is on the screen
let tableKey = "";    // what the table and the decision were last drawn from (see tableInputs)
// Chat: on the page's one connection (a hot-seat page, holding several, has none).
// A message on a connection that is open; one still connecting (or closed) gets nothing: its
// hello, once open, brings the whole state again (a send then threw "Still in CONNECTING state").
const sendOn = (ws, message) => { if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message)); };
// On a phone the chat lies below the board: a line said while your decision waits, the board
// comes back into sight (you said your piece; it is your move).
const chat = chatPanel(gameId, (message) => sendOn(connections[0].ws, message), () => {
  const shown = chooseShown();
  if (shown?.view && decidingOnPhone(shown.view, shown.seat)) showTheBoard();
});
// A decision of the viewer's waits, on a phone (where the board may be scrolled out of sight).
const decidingOnPhone = (view, seat) => phone.matches && seat !== null && view.current_player === seat && Boolean(view.legal?.length);
const CHAT_REFUSALS = new Set(["bad_chat", "blank_chat", "chat_too_fast", "no_chat"]);
const chatOpen = () => connections.length === 1 && (meta?.seats || []).filter((s) => s.kind !== "bot").length >= 2;
const sendPresence = (ws) => sendOn(ws, { type: "presence", visible: document.visibilityState === "visible" });
document.addEventListener("visibilitychange", () => { for (const c of connections) sendPresence(c.ws); });

function connect(connection, delay = 0) {
  setTimeout(() => {
    const protocol = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${protocol}://${location.host}/ws/games/${gameId}`);
    connection.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify(connection.token ? { type: "hello", token: connection.token }
        : connection.account ? { type: "hello", account: true } : { type: "hello" }));
      sendPresence(ws);
    };
    ws.onmessage = (message) => enqueue(connection, JSON.parse(message.data));
    ws.onclose = (event) => {
      connection.ws = null;
      connection.live = false;
      if (event.code === 4404) return fail(gone || "This game is gone: the server has no such game (a game nobody plays expires).");
      if (event.code === 4410) return fail("This game has expired: nobody played it for a long time.");
      if (event.code === 4429) {
        // Refused for a limit (too many connections, too fast): say so, and wait before trying again.
        waiting = "The server is busy — trying again in 10 seconds…";
        showState();
        return connect(connection, 10_000);
      }
      draw();
      showState();
      connect(connection, Math.min(5000, 250 * 2 ** connection.failures++));
    };
  }, delay);
}

// Messages are drawn one at a time, in order: another seat's move is drawn no sooner than
// PACE_MS after the update before it, so your own move is seen before the answer to it and a
// bot's chain of moves plays out one by one.
const queue = [];
let pumping = false;
let shownAt = 0;  // when the last update was drawn
function enqueue(connection, message) {
  queue.push([connection, message]);
  if (!pumping) pump();
}

async function pump() {
  pumping = true;
  while (queue.length) {
    const [connection, message] = queue.shift();
    if (message.type === "update") {
      const wait = connection.acted ? 0 : shownAt + PACE_MS - Date.now();
      if (wait > 0) await new Promise((done) => setTimeout(done, wait));
      shownAt = Date.now();
    }
    await receive(connection, message);
  }
  pumping = false;
}

// Take in one message and draw what it changed.
async function receive(connection, message) {
  if (message.type === "welcome") {
    meta = message;
    connection.seat = message.seat;
    if (message.seat !== null) rememberSeats(gameId, [message.seat]);
    connection.log = message.events;
    connection.logFrom = message.log_from || 0;
    connection.view = message;
    connection.last = message.last_events?.length ? message.last_events : message.events.slice(-1);
    connection.live = true;
    connection.failures = 0;
    if (connection.token && message.seat !== null && connections.length === 1 && !connection.kept) {
      connection.kept = true;
      keepSeat(gameId, connection.token, message.seats[message.seat], message.seats);
    }
    waiting = "";
    book = book || (await pictureBook(message.game, message.data));
    $("how-to-play").href = book.how_to_play;
    view = view || (await boardView(book));
    problem = "";
    chat.welcome(message, chatOpen());
  } else if (message.type === "update") {
    takeLastMove(connection, message);
    connection.view = message;
    connection.log = connection.log.concat(message.events);
    connection.acted = false;  // the answer to this page's own action has come
    problem = "";
  } else if (message.type === "history") {
    if (message.before !== connection.logFrom) return;  // an answer to an older welcome
    connection.log = message.events.concat(connection.log);
    connection.logFrom = message.from;
    if (logShown === connection) drawLog(connection, { earlier: true });
    return;
  } else if (message.type === "chat") {
    chat.add(message.lines);
    return;
  } else if (message.type === "seats") {
    if (meta) meta.seats = message.seats;
    drawEnd(connection);  // who is here: an offer leaves with its seat
  } else if (message.type === "clock") {
    if (connection.view) connection.view = { ...connection.view, clock: message.clock };
  } else if (message.type === "window") {
    // The answering page drew the window: it closes its whole time after that drawing.
    if (connection.view?.at === message.at) connection.view = { ...connection.view, closes_at: message.closes_at };
  } else if (message.type === "hint") {
    connection.hint = message;
  } else if (message.type === "rematch") {
    if (!meta) return;
    meta.rematch = message.game_id;
    if (connection.token && meta.rematch_offers?.includes(connection.seat)) {  // offered, accepted: go
      rememberTokens(message.game_id, tokens);
      location.href = `/games/${message.game_id}`;
      return;
    }
    drawEnd(connection);
  } else if (message.type === "rematch_offer") {
    if (!meta) return;
    meta.rematch_offers = message.seats;
    declinedBy = message.declined_by ?? null;
    drawEnd(connection);
  } else if (message.type === "rated") {
    if (meta) meta.rating_changes = message.changes;
    drawEnd(connection);
  } else if (message.type === "error") {
    if (message.code === "unavailable_game") return fail(`This game cannot go on here: ${message.message}`);
    if (CHAT_REFUSALS.has(message.code)) return chat.problem(message.message);
    if (message.code === "bad_token") {
      // A token that opens nothing (an old or mistyped link): the server lets this
      // connection watch, and the page says so for as long as it is open.
      localStorage.removeItem(`matanui:tokens:${gameId}`);
      connection.token = null;
      notice = "This invite link is not valid for this game; you are watching.";
    } else if (QUIET.has(message.code)) {
      // Nothing changed: the table as drawn stands (its view may be mid-gesture), only the
      // decision is offered again; the fresh view, if any, is on its way.
      connection.acted = false;
      document.body.classList.remove("acting");
      for (const button of document.querySelectorAll("#actions [data-action]")) button.disabled = false;
      return;
    } else {
      console.warn("refused:", message.code, message.message);
      tableKey = "";  // the move was not taken: the table is drawn afresh, its choices free again
      problem = message.code === "not_saved" ? "Your move was not saved (the server cannot write just now); try it again in a moment."
        : "That move was not accepted; the table shows the game as it is.";
    }
  }
  draw();
}

// A move of several actions (Makuta: a roll, then its steps) is one last move: the steps of
// the same seat add to it until anything else happens.
const WALKING = new Set(["turn", "roll", "step"]);
// The latest move's events: a Makuta walk goes on in one move; a response window's answer
// follows the card it answered (the cause before its effect, lastmove.js).
function takeLastMove(connection, message) {
  const events = message.events;
  if (!events.length) return;
  if (continues(connection.last, events)) connection.last = connection.last.concat(events);
  else if (connection.view?.closes_at && connection.last?.length) {
    connection.answer = events[0];
    connection.last = connection.last.concat(events);
  } else {
    connection.answer = null;
    connection.last = events;
  }
}

function continues(before, after) {
  return Boolean(before?.length) && before.every((e) => WALKING.has(e.kind)) && after[0]?.seat !== undefined
    && after[0].seat === before.at(-1).seat;
}

function fail(text) {
  gone = text;
  draw();
  showState();
  if (!meta) $("turn-title").textContent = "No game to show";
}

function status(text) { $("status").textContent = text; }
const down = () => connections.some((c) => !c.live);
// Between sending an action and the next view nothing more is sent: the listed decisions are
// disabled and the table takes no pointer (the views own their buttons; a redraw frees it).
function disableActions() {
  for (const button of document.querySelectorAll("[data-action]")) button.disabled = true;
  document.body.classList.add("acting");
}

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
    // A seat out of the game (resigned, out of time) says so: nobody waits for it.
    const online = seatsNow().map((s, i) => `${name(i)}${ratingText(s)}${s.out ? " (out)" : s.kind === "bot" ? ` (bot, ${s.level})` : s.presence && s.presence !== "here" ? ` (${s.presence})` : ""}`);
    status([notice, problem || online.join(" · ")].filter(Boolean).join(" "));
  }
  line.classList.toggle("bad", Boolean(gone || problem || notice));
}

// The seats as the shown view has them: `out` from its observation too (an update says who
// resigned; a seats message need not follow).
function seatsNow() {
  const out = shownObs?.out || [];
  return (meta.seats || []).map((seat, i) => ({ ...seat, out: Boolean(seat.out) || out.includes(i) }));
}

// A seat's name for the shown seat's eyes: "you", else the display name or character.
function name(seat) {
  return seat === shownSeat && !watching ? "you" : playerName(book, shownObs, seat, meta.seats);
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

// Everything the table and the decision are drawn from. A message that changes none of it (a
// clock's tick, a presence, a chat line, a hint) leaves the board as it is: a space, a card or
// a button under the pointer is never replaced while a person reaches for it.
function tableInputs(current, connection, offline) {
  return JSON.stringify([current.at, current.observation, current.legal, current.gestures, current.closes_at, current.over,
    current.winners, connection.last, connection.seat, shownSeat, coverFor, offline, down(), Boolean(gone),
    (meta.seats || []).map((s) => [s.name, s.kind, s.level, s.out]), phone.matches]);
}

function draw() {
  const connection = chooseShown();
  if (!connection || !meta || !view) return;
  const current = connection.view;
  let deciding = false;  // a new decision of the viewer's on a phone: its board is shown last
  const obs = shownObs = current.observation;
  lastMove = connection.last || [];
  const mySeat = connection.seat;
  // Your turn: a decision that waits for you (not a window the server closes by itself).
  const myTurn = mySeat !== null && current.current_player === mySeat && Boolean(current.legal?.length) && !current.closes_at;
  showTurn({ yours: myTurn, title: meta.title, alerting: mySeat !== null && connections.length === 1 });
  // Watching a game this browser holds a seat in (a ?watch link): never a silent downgrade.
  const resume = watching && heldTokens(gameId).length
    ? [" ", el("a", { href: `/games/${gameId}`, class: "resume" }, "Resume your seat")] : [];
  $("title").replaceChildren(el("strong", {}, meta.title), " ",
    el("span", { class: "small" }, mySeat === null ? "(watching)" : `(you play ${playerName(book, obs, mySeat, [])})`), ...resume,
    ...(meta.data ? [" ", el("span", { class: "small data-pack" }, `· ${dataText(meta.data)}`)] : []),
    ...(meta.rated ? [" ", el("span", { class: "badge rated", "data-tip": "A rated game: its result changes the players' ratings" }, "Rated")] : []));
  showState();

  const cover = $("cover");
  cover.hidden = coverFor === null;
  if (coverFor !== null) {
    const next = playerName(book, obs, coverFor, meta.seats);
    const pieces = ($("mine").getAttribute("aria-label") || "Your hand").toLowerCase();
    $("cover-text").textContent = `Pass the screen to ${next} — ${next}, it is your turn: tap to show ${pieces}.`;
    $("cover-button").textContent = `Show ${pieces.replace(/^your /, "my ")}`;
  }

  const legal = current.legal || [];
  const act = (id) => {
    if (gone || down()) return;
    sendOn(connection.ws, { type: "act", action: id, at: current.at });
    connection.acted = true;
    disableActions();
  };
  // While the connection is down (or the game gone) the board offers nothing to click.
  const offline = Boolean(gone) || down();
  const mine = $("mine");
  mine.hidden = mySeat === null;
  const inputs = tableInputs(current, connection, offline);
  if (inputs !== tableKey) {
    tableKey = inputs;
    document.body.classList.remove("acting");
    const ctx = { book, seat: mySeat, legal: offline ? [] : legal, act, players: meta.players, seats: meta.seats,
      mine: mySeat === null ? null : mine, last: lastMove, name, gestures: offline ? {} : current.gestures || {} };
    flip(document.querySelector(".table"), () => view.render($("board"), obs, ctx));
    drawLastMove(connection.answer);
    drawTurn(current, connection, { ...ctx, legal });  // offline: listed, disabled below
    deciding = decidingOnPhone(current, mySeat);
  }
  drawPresence(seatsNow(), name, mySeat, chat, chatOpen());
  drawHint($("hint"), { offered: Boolean(meta.hints) && !offline, agreed: Boolean(meta.hints_agreed), connection, current,
    send: (message) => sendOn(connection.ws, message), light: showOnTable, act });
  drawResign($("resign"), connection, current, (text) => { problem = text; showState(); });
  drawClocks($("clocks"), current.clock, { seats: seatsNow(), mySeat, name, abortable: current.abortable,
    send: (message) => sendOn(connection.ws, message) });
  const naming = document.querySelector(".seat-name");
  if (current.over) naming?.remove();  // a name is asked for the game, not after it
  else if (!naming && !session.account) {  // signed in: the account's name
    const form = nameForm(gameId, connection.token, mySeat, meta.seats, (text) => { problem = text; showState(); });
    if (form) document.querySelector(".play-area").prepend(form);
  }
  drawLog(connection);
  if (deciding) showTheBoard();  // last: the clocks and the name form above it are drawn
  if (offline) disableActions();
  if (current.over && !endShown && coverFor === null) {
    endShown = true;
    openEnd(current, connection);
  }
}

// The log as far back as this page has it; above it, while there is more, a button that asks
// for the page before (`earlier`: it came, so the log shows its top).
function drawLog(connection, { earlier = false } = {}) {
  logShown = connection;
  const list = $("log");
  appendLog(list, connection.log, { clear: true });
  if (connection.logFrom > 0) {
    const more = el("button", { type: "button", onclick: () => {
      more.disabled = true;
      sendOn(connection.ws, { type: "history", before: connection.logFrom });
    } }, `Show earlier (${connection.logFrom} more)`);
    list.prepend(el("li", { class: "earlier" }, more));
  }
  if (earlier) list.scrollTop = 0;
}

// On a phone the play area scrolls (the clocks, a name form and the other players' pieces lie
// above the board): when a decision comes, the face of the board it is made on (Reconstruct's
// piles and card in play, a map) is brought into sight, moving no more than that takes.
function showTheBoard() {
  $("board").querySelector(".centre, .zoom-frame")?.scrollIntoView({ block: "nearest", inline: "nearest" });
}

// Near the board: what the latest move did, in the rulebook's words, one line per mover, the
// whole text wrapped (never cut), the viewer as "you" (lastmove.js). `answer`: the first
// event of a response window's answer, which carries out the card before it.
function drawLastMove(answer) {
  const told = lastMove.filter((event) => event.kind !== "turn" || lastMove.length === 1);
  const you = shownSeat === null || watching ? null : playerName(book, shownObs, shownSeat, meta.seats);
  const lines = moveLines(told, answer).map((line) => line.texts.map((text) => asYou(text, you)).join(" "));
  $("last-move").replaceChildren(...(lines.length ? lines : ["none yet"]).map((text, index) =>
    el("span", { class: "move-line" }, ...(index ? [] : [el("strong", {}, "Last move: ")]), text)));
}

// The decision as a list of buttons: the legal actions, or what the view offers for them
// (`decisions`: Makuta's whole walks, one button per space a move can end on).
function drawTurn(current, connection, ctx) {
  const { legal, act } = ctx;
  const list = $("actions");
  list.replaceChildren();
  const title = $("turn-title");
  if (current.over) {
    const winners = current.winners.map((s) => name(s));
    title.textContent = current.aborted ? "The game was aborted: no result, unrated"
      : winners.length ? `${capital(winners.join(" and "))} won` : "The game is drawn";
    drawOver(connection, current);
    return;
  }
  $("over").hidden = true;
  const who = current.current_player;
  const seat = meta.seats?.[who];
  if (connection.seat === null) title.textContent = `${capital(name(who))} to decide${seat?.kind === "bot" ? " (bot)" : ""}`;
  else if (who === connection.seat && !legal.length) title.textContent = "Nothing to choose: it plays itself…";
  else if (!legal.length) title.textContent = seat?.kind === "bot" ? `${capital(name(who))} (bot) is thinking…` : `Waiting for ${name(who)}…`;
  else if (!current.closes_at) title.textContent = down() && !gone ? "Your decision (reconnecting…)" : "Your decision";
  if (current.closes_at && legal.length) return drawWindow(current, connection, legal, act, title);
  const offered = legal.length && view.decisions?.($("board"), shownObs, ctx);
  if (offered?.title) title.textContent = offered.title;
  const entries = offered?.entries || legal.map((action) => ({ text: action.text, action: action.id, run: () => act(action.id) }));
  for (const { text, action, run, light = (on) => highlight(action, on) } of entries) {
    list.append(el("li", {}, el("button", {
      dataset: { action }, onclick: run, onmouseenter: () => light(true), onmouseleave: () => light(false),
    }, text)));
  }
}

// A response window (Reconstruct: a stop card?; Masks: a card before the turn passes) closes
// by itself when its time is up, with its pass (the card taking effect, the turn passing): the
// server holds it open as long whether or not you could answer, counted from the moment this
// page draws it (the `drawn` message; docs/protocol.md, "Response windows"). With nothing to
// answer it is no decision: no "Your decision", nothing to click, only what takes effect and
// when. With a card to play, its button. A view words the clock (windowText).
let windowTimer = null;
const windowDeadlines = new Map();  // the view's `at` -> when its window closes on this page's clock
function drawWindow(current, connection, legal, act, title) {
  const list = $("actions");
  const answers = legal.filter((action) => !["allow", "pass"].includes(action.targets?.kind));
  if (!windowDeadlines.has(current.at) && coverFor === null) {
    windowDeadlines.set(current.at, Date.now() + (current.window_seconds ?? 0) * 1000);
    sendOn(connection.ws, { type: "drawn", at: current.at });
  }
  const deadline = windowDeadlines.get(current.at) ?? current.closes_at * 1000;
  const left = () => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  title.textContent = view.windowTitle?.(shownObs, name, answers.length > 0) || (answers.length ? "Your decision" : "Nothing to answer");
  const clock = el("li", { class: "window-clock", role: "timer" });
  const tick = () => { clock.textContent = view.windowText ? view.windowText(answers.length > 0, left(), shownObs, name)
    : answers.length ? `Answer within ${left()} s, or it takes effect.` : `Nothing of yours can answer: it takes effect in ${left()} s.`; };
  tick();
  clearInterval(windowTimer);
  windowTimer = setInterval(() => (clock.isConnected ? tick() : clearInterval(windowTimer)), 250);
  list.append(clock, ...answers.map((action) => el("li", {}, el("button", { class: "primary", dataset: { action: action.id }, onclick: () => act(action.id) }, action.text))));
}

function highlight(id, on) {
  for (const node of document.querySelectorAll(`[data-actions~="${CSS.escape(id)}"]`)) node.classList.toggle("hint", on);
}

// A hinted move lit up where it is made on the table (the board, your pieces), brought into
// sight (a map keeps its own pan: its frame is never scrolled); false if it has no place there.
function showOnTable(id) {
  highlight(id, true);
  const places = [...document.querySelectorAll(`:is(#board, #mine) [data-actions~="${CSS.escape(id)}"]`)];
  if (places[0] && !places[0].closest(".zoom-frame")) places[0].scrollIntoView({ block: "nearest", inline: "nearest" });
  return places.length > 0;
}

let declinedBy = null;  // the seat that declined the latest rematch offer
// What comes after the end: the rematch (offered to the others and accepted, as on lichess;
// made at once where no other person sits at the table), the replay and the lobby.
function endButtons(connection) {
  const replay = el("a", { href: `/games/${gameId}/replay`, class: "button" }, "Replay");
  const lobby = el("a", { href: "/", class: "button" }, "Lobby");
  if (meta.rematch) {
    return [el("a", { href: `/games/${meta.rematch}`, class: "button primary", onclick: () => rememberTokens(meta.rematch, tokens) }, "Go to the rematch"), replay, lobby];
  }
  if (!connection.token) return [replay, lobby];
  const me = connection.seat;
  const people = (meta.seats || []).map((s, seat) => (s.kind === "human" || s.replaced ? seat : null)).filter((seat) => seat !== null);
  // An offer stands while its seat is here (the server drops a stale one the same way).
  const offers = (meta.rematch_offers || []).filter((seat) => seat === me || meta.seats?.[seat]?.online);
  const names = (seats) => capital(seats.map((seat) => name(seat)).join(" and "));
  const ask = (text) => el("button", { class: "primary", onclick: () => askRematch(connection) }, text);
  const decline = (text) => el("button", { onclick: () => declineRematch(connection) }, text);
  if (offers.includes(me)) {
    const waiting = people.filter((seat) => !offers.includes(seat));
    return [el("span", { class: "rematch-note", role: "status" }, `Rematch offered: waiting for ${names(waiting)}…`), decline("Withdraw the offer"), replay, lobby];
  }
  if (offers.length) {
    return [el("span", { class: "rematch-note", role: "status" }, `${names(offers)} ${offers.length === 1 ? "offers" : "offer"} a rematch.`),
      ask("Accept the rematch"), decline("Decline"), replay, lobby];
  }
  const declined = declinedBy !== null && declinedBy !== me
    ? [el("span", { class: "rematch-note", role: "status" }, `${capital(name(declinedBy))} declined the rematch.`)] : [];
  return [...declined, ask(people.length > 1 && !meta.hotseat ? "Offer a rematch" : "Rematch"), replay, lobby];
}

async function askRematch(connection) {
  try {
    const answer = await api(`/api/games/${gameId}/rematch`, { method: "POST", body: JSON.stringify({ token: connection.token }) });
    if (answer.id) {
      rememberTokens(answer.id, tokens);
      location.href = `/games/${answer.id}`;
      return;
    }
    meta.rematch_offers = answer.offered_by;  // the others are asked
    drawEnd(connection);
  } catch (error) { status(error.message); }
}

async function declineRematch(connection) {
  try {
    await api(`/api/games/${gameId}/rematch/decline`, { method: "POST", body: JSON.stringify({ token: connection.token }) });
    meta.rematch_offers = [];
    drawEnd(connection);
  } catch (error) { status(error.message); }
}

// The end's buttons and dialog drawn again: a rematch offered, accepted or made, the ratings
// changed, someone gone (their offer with them).
function drawEnd(connection) {
  const current = connection?.view;
  if (!current?.over || !meta || !view) return;
  drawOver(connection, current);
  if ($("end").open) openEnd(current, connection);
}

function drawOver(connection, current) {
  const over = $("over");
  over.hidden = false;
  over.replaceChildren(...endButtons(connection), el("button", { onclick: () => openEnd(current, connection) }, "Result"));
}

// Each seat's rating after the game and its change, as a row of the end's figures.
function ratingFigures() {
  const changes = meta.rating_changes || [];
  if (!changes.length) return [];
  const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");
  const values = (meta.seats || []).map((_, seat) => {
    const change = changes.find((c) => c.seat === seat);
    return change ? `${change.after} (${signed(change.after - change.before)})` : "";
  });
  return [{ label: "Rating", values }];
}

function openEnd(current, connection) {
  const summary = view.summary ? view.summary(current.observation, book) : { figures: [], turns: null };
  const ended = [...connection.log].reverse().find((e) => ["win", "draw_game", "resign", "timeout", "abort"].includes(e.kind))?.text || "";
  const why = connection.seat === null || watching ? ended : asYou(ended, playerName(book, current.observation, connection.seat, meta.seats));
  const rated = !meta.rated ? "" : meta.rating_changes ? " Rated game." : " Rated game: the new ratings are on their way.";
  showEnd($("end"), {
    viewer: connection.seat, winners: current.winners, aborted: current.aborted, name, obs: current.observation, why: `${why}${rated}`,
    ...summary, figures: [...summary.figures, ...ratingFigures()],
    minutes: meta.created ? Math.max(1, Math.round(((meta.finished || Date.now() / 1000) - meta.created) / 60)) : null,
    buttons: endButtons(connection), players: current.observation.players.length,
  });
}

$("cover-button").addEventListener("click", () => { shownSeat = coverFor; coverFor = null; draw(); });
// On a phone the log starts folded: the board and your pieces come first. There the log lies
// in the play area, below the board, which scrolls by itself (style.css); on a wider screen it
// is the column beside. The last move sits above the play area on a phone, in sight however
// far the play area is scrolled.
const phone = window.matchMedia("(max-width: 760px)");
function placeSide() {
  const [table, play] = [document.querySelector(".table"), document.querySelector(".play-area")];
  (phone.matches ? play : table).append(document.querySelector(".side"));
  if (phone.matches) table.prepend($("last-move"));
  else play.insertBefore($("last-move"), $("board"));
}
if (phone.matches) $("log-panel").open = false;
placeSide();
phone.addEventListener("change", () => { placeSide(); draw(); });
// The session, if any: its CSRF token goes with every write the cookie rides on (a rematch, a
// name); without a seat token, a signed-in player's account opens its seat (from any device).
if (!watching) await loadSession();
if (!tokens.length && !watching) connections[0].account = Boolean(session.account);
for (const connection of connections) connect(connection);
