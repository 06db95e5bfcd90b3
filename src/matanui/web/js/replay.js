// The replay page: every position of a game, stepped through forwards and back or played on
// its own at a chosen speed, with the log of everything up to the current step, a jump to any
// turn, in the public view (or a seat's view once the game is over, or with that seat's
// token). The controls stay disabled until a replay has loaded.
import { drawReplayChat } from "./chat.js";
import { api, appendLog, boardView, dataText, el, pictureBook, playerName, tokensFor } from "./common.js";
import { analysisPanel } from "./analysis.js";

const gameId = location.pathname.split("/")[2];
const $ = (id) => document.getElementById(id);
const CONTROLS = ["first", "back", "play", "next", "last", "step", "speed", "turn", "viewer"];
let data = null;
let book = null;
let view = null;
let step = 0;
let shown = -1;  // the step the log runs up to
let timer = null;
let analysis = null;  // the analysis panel, once the game is over

function enable(on) {
  for (const id of CONTROLS) $(id).disabled = !on;
}

const names = (seat) => playerName(book, data.frames[0].observation, seat, data.game.seats);
const lastTurn = () => data.frames.at(-1).observation.turn;

async function load(seat) {
  stop();
  enable(false);
  const query = seat === "" ? "" : `?seat=${seat}`;
  const tokens = tokensFor(gameId);
  const headers = tokens.length === 1 ? { "x-seat-token": tokens[0] } : {};
  try {
    data = await api(`/api/games/${gameId}/replay${query}`, { headers });
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
  $("step").max = data.frames.length - 1;
  $("turn").max = lastTurn();
  if (data.record) {
    $("record-panel").hidden = false;
    $("record-link").href = URL.createObjectURL(new Blob([JSON.stringify(data.record, null, 1)], { type: "application/json" }));
    $("record-link").download = `${data.game.game}-${gameId}.matanui.json`;
    analysis = analysis || analysisPanel($("analysis-panel"), { gameId, steps: data.frames.length - 1, names, jump: show });
  }
  shown = -1;
  enable(true);
  show(Math.min(step, data.frames.length - 1));
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

function show(index) {
  step = Math.max(0, Math.min(index, data.frames.length - 1));
  const frame = data.frames[step];
  $("step").value = step;
  $("position").textContent = `${step} / ${data.frames.length - 1} · turn ${frame.observation.turn} of ${lastTurn()}`;
  $("turn").value = frame.observation.turn;
  $("step-text").textContent = stepText(frame);
  const judged = analysis?.show(step);
  $("step-judged").textContent = judged || "";
  drawLog();
  drawReplayChat($("chat-lines"), data.chat || [], step);
  view.render($("board"), frame.observation, { book, seat: data.seat, legal: [], players: data.game.players, seats: data.game.seats });
  if (step === data.frames.length - 1) stop();
}

// The first step of turn `n` (or the last step, past the end).
function jumpToTurn(n) {
  const index = data.frames.findIndex((frame) => frame.observation.turn >= n);
  show(index === -1 ? Infinity : index);
}

function stop() {
  clearInterval(timer);
  timer = null;
  $("play").textContent = "▶ Play";
  $("play").setAttribute("aria-label", "Play");
}

function play() {
  if (timer) { stop(); return; }
  if (step === data.frames.length - 1) show(0);
  timer = setInterval(() => show(step + 1), Number($("speed").value));
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
