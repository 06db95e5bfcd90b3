// The replay page: every position of a game, stepped through forwards and back or played on
// its own at a chosen speed, with the log of everything up to the current step, a jump to any
// turn, in the public view (or a seat's view once the game is over, or with that seat's
// token). The controls stay disabled until a replay has loaded.
//
// The first answer carries every step's frame (its words, events and turn) but the positions
// of the first steps only, so that the board is drawn at once however long the game; the
// positions of the other steps are asked for a range at a time as they are needed, one request
// at a time, and the next range ahead before it is (GET /api/games/{id}/replay?from=&to=).
import { drawReplayChat } from "./chat.js";
import { api, appendLog, boardView, dataText, el, pictureBook, playerName, tokensFor } from "./common.js";
import { analysisPanel } from "./analysis.js";

const gameId = location.pathname.split("/")[2];
const $ = (id) => document.getElementById(id);
const CONTROLS = ["first", "back", "play", "next", "last", "step", "speed", "turn", "viewer"];
const RANGE = 40;  // positions asked for at a time (the server gives at most 100)
const AHEAD = 20;  // the next range is asked for this many steps before it is needed
let data = null;  // the first answer: game, seat, frames, chat, record
let positions = [];  // each step's observation, as the answers bring them
let asking = false;  // a range is on its way
let book = null;
let view = null;
let step = 0;
let shown = -1;  // the step the log runs up to
let drawn = -1;  // the step the board shows
let timer = null;
let analysis = null;  // the analysis panel, once the game is over

function enable(on) {
  for (const id of CONTROLS) $(id).disabled = !on;
}

const last = () => data.frames.length - 1;
const names = (seat) => playerName(book, positions[0], seat, data.game.seats);
const lastTurn = () => data.frames.at(-1).turn;

function seatHeaders() {
  const tokens = tokensFor(gameId);
  return tokens.length === 1 ? { "x-seat-token": tokens[0] } : {};
}

function replayUrl(params) {
  const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== ""));
  return `/api/games/${gameId}/replay${query.size ? `?${query}` : ""}`;
}

function keep(answer) {
  answer.observations.forEach((observation, i) => { positions[answer.from + i] = observation; });
}

async function load(seat) {
  stop();
  enable(false);
  try {
    data = await api(replayUrl({ seat }), { headers: seatHeaders() });
    positions = [];
    keep(data);
    book = await pictureBook(data.game.game, data.game.data);
    view = await boardView(book);
  } catch (error) {
    $("position").textContent = "";
    $("step-text").textContent = `This replay could not be loaded: ${error.message}`;
    return;
  }
  const players = data.game.players.map((_, i) => names(i));
  $("title").replaceChildren(el("strong", {}, data.game.title), " ",
    el("span", { class: "small" }, `${players.join(" vs ")} · ${dataText(data.game.data)}`));
  const viewer = $("viewer");
  if (!viewer.options.length) {
    viewer.append(el("option", { value: "" }, "Everyone's view"),
      ...players.map((name, i) => el("option", { value: i }, `${name}'s view`)));
  }
  $("step").max = last();
  $("turn").max = lastTurn();
  if (data.record) {
    $("record-panel").hidden = false;
    $("record-link").href = URL.createObjectURL(new Blob([JSON.stringify(data.record, null, 1)], { type: "application/json" }));
    $("record-link").download = `${data.game.game}-${gameId}.matanui.json`;
    analysis = analysis || analysisPanel($("analysis-panel"), $("marks-panel"), { gameId, steps: last(), names, jump: jumpFromChart });
  }
  shown = drawn = -1;
  enable(true);
  show(Math.min(step, last()));
}

// The steps around `at` whose positions are missing, at most RANGE of them: from `at` on when
// stepping forwards, and some before it, for one who steps back.
function missingAround(at) {
  let from = at;
  while (from > 0 && !positions[from - 1] && at - from < RANGE / 2) from -= 1;
  let to = from;
  while (to < last() && !positions[to + 1] && to - from < RANGE - 1) to += 1;
  return { from, to };
}

// Ask for the missing positions around `at` (nothing while a range is on its way), then draw
// the board if the step on screen was waiting for them.
async function ask(at) {
  if (asking || positions[at]) return;
  asking = true;
  const asked = data;
  try {
    const answer = await api(replayUrl({ seat: data.seat ?? "", ...missingAround(at) }), { headers: seatHeaders() });
    if (asked === data) keep(answer);
  } catch (error) {
    $("position").textContent = `${positionText()} · the board could not be loaded: ${error.message}`;
    return;
  } finally {
    asking = false;
  }
  drawBoard();
}

function firstMissing(from, to) {
  for (let at = from; at <= to; at += 1) if (!positions[at]) return at;
  return undefined;
}

// The board at the current step, once its position is here (till then the last one drawn
// stays, marked busy); and the next range asked for before it is needed.
function drawBoard() {
  const observation = positions[step];
  $("board").setAttribute("aria-busy", String(!observation));
  if (!observation) {
    ask(step);
    return;
  }
  if (drawn !== step) {
    view.render($("board"), observation, { book, seat: data.seat, legal: [], players: data.game.players, seats: data.game.seats });
    drawn = step;
  }
  const ahead = firstMissing(step + 1, Math.min(step + AHEAD, last()));
  if (ahead !== undefined) ask(ahead);
}

// The log holds every event up to `step`, the current step's marked; one step forward only
// appends its events.
function drawLog() {
  const log = $("log");
  if (step === shown + 1 && shown >= 0) {
    for (const line of log.querySelectorAll(".now")) line.classList.remove("now");
    appendLog(log, data.frames[step].events);
  } else {
    appendLog(log, data.frames.slice(0, step + 1).flatMap((frame) => frame.events), { clear: true });
  }
  const count = data.frames[step].events.length;
  for (const line of [...log.children].slice(log.children.length - count)) line.classList.add("now");
  shown = step;
}

function stepText(frame) {
  return frame.actor === undefined ? frame.text : `${names(frame.actor)}: ${frame.text}`;
}

function positionText() {
  const turn = data.frames[step].turn;
  return `${step} / ${last()}${turn === null ? "" : ` · turn ${turn} of ${lastTurn()}`}`;
}

function show(index) {
  step = Math.max(0, Math.min(index, last()));
  const frame = data.frames[step];
  $("step").value = step;
  $("position").textContent = positionText();
  $("turn").value = frame.turn;
  $("step-text").textContent = stepText(frame);
  const judged = analysis?.show(step);
  $("step-judged").textContent = judged || "";
  drawLog();
  drawReplayChat($("chat-lines"), data.chat || [], step);
  drawBoard();
  if (step === last()) stop();
}

// A step chosen on the analysis's chart, and the board brought into view with it (on a
// phone the board lies below the chart).
function jumpFromChart(at) {
  show(at);
  $("board").scrollIntoView({ block: "nearest" });
}

// The first step of turn `n` (or the last step, past the end).
function jumpToTurn(n) {
  const index = data.frames.findIndex((frame) => frame.turn >= n);
  show(index === -1 ? Infinity : index);
}

function stop() {
  clearInterval(timer);
  timer = null;
  $("play").textContent = "▶ Play";
  $("play").setAttribute("aria-label", "Play");
}

// Played on its own, a step waits for its position rather than run ahead of the board.
function tick() {
  if (positions[step + 1]) show(step + 1);
  else ask(step + 1);
}

function play() {
  if (timer) { stop(); return; }
  if (step === last()) show(0);
  timer = setInterval(tick, Number($("speed").value));
  // Two bars drawn by the page: the pause sign (U+23F8) is missing from common fonts.
  $("play").replaceChildren(el("span", { class: "pause-sign", "aria-hidden": "true" }), " Pause");
  $("play").setAttribute("aria-label", "Pause");
}

$("first").onclick = () => show(0);
$("back").onclick = () => show(step - 1);
$("next").onclick = () => show(step + 1);
$("last").onclick = () => show(Infinity);
$("play").onclick = play;
$("speed").onchange = () => { if (timer) { stop(); play(); } };
$("step").oninput = (event) => show(Number(event.target.value));
$("turn").onchange = (event) => jumpToTurn(Number(event.target.value));
$("viewer").onchange = (event) => load(event.target.value);
document.addEventListener("keydown", (event) => {
  if (!data || event.target.matches("input, select")) return;
  if (event.key === "ArrowRight") show(step + 1);
  if (event.key === "ArrowLeft") show(step - 1);
});
load("");
