// The replay page: every position of a game, stepped through forwards and back, in the public
// view (or a seat's view once the game is over, or with that seat's token).
import { api, appendLog, boardView, dataText, el, pictureBook, tokensFor } from "./common.js";

const gameId = location.pathname.split("/")[2];
const $ = (id) => document.getElementById(id);
let data = null;
let book = null;
let view = null;
let step = 0;

async function load(seat) {
  const query = seat === "" ? "" : `?seat=${seat}`;
  const tokens = tokensFor(gameId);
  const headers = tokens.length === 1 ? { "x-seat-token": tokens[0] } : {};
  try {
    data = await api(`/api/games/${gameId}/replay${query}`, { headers });
  } catch (error) {
    $("step-text").textContent = error.message;
    return;
  }
  book = await pictureBook(data.game.game, data.game.data);
  view = await boardView(data.game.game);
  $("title").replaceChildren(el("strong", {}, data.game.title), " ",
    el("span", { class: "small" }, `${data.game.players.join(" vs ")} · ${dataText(data.game.data)}`));
  const viewer = $("viewer");
  if (!viewer.options.length) {
    viewer.append(el("option", { value: "" }, "public view"));
    data.game.players.forEach((p, i) => viewer.append(el("option", { value: i }, `Player ${i + 1}'s view (${p})`)));
  }
  $("step").max = data.frames.length - 1;
  if (data.record) {
    $("record-panel").hidden = false;
    $("record-link").href = URL.createObjectURL(new Blob([JSON.stringify(data.record, null, 1)], { type: "application/json" }));
    $("record-link").download = `${data.game.game}-${gameId}.matanui.json`;
  }
  show(Math.min(step, data.frames.length - 1));
}

function show(index) {
  step = Math.max(0, Math.min(index, data.frames.length - 1));
  const frame = data.frames[step];
  $("step").value = step;
  $("position").textContent = `${step} / ${data.frames.length - 1}`;
  $("step-text").textContent = frame.text;
  appendLog($("log"), frame.events, { clear: true });
  const seat = data.seat;
  view.render($("board"), frame.observation, { book, seat, legal: [], act: () => {}, players: data.game.players, seats: data.game.seats });
}

$("first").onclick = () => show(0);
$("back").onclick = () => show(step - 1);
$("next").onclick = () => show(step + 1);
$("last").onclick = () => show(Infinity);
$("step").oninput = (event) => show(Number(event.target.value));
$("viewer").onchange = (event) => load(event.target.value);
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowRight") show(step + 1);
  if (event.key === "ArrowLeft") show(step - 1);
});
load("");
