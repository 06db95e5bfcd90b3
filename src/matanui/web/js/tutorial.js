// A tutorial: the server replays it through the engine for every request, so this page keeps
// only `at` (the steps done, also in the address's #at= so that a reload resumes). It draws
// the learner's view with the game's own board view, says what this step asks and why, and
// sends the learner's move; the tutorial's move goes ahead, any other comes back with a hint.
import { api, appendLog, boardView, el, pictureBook, playerName, rememberTokens } from "./common.js";
import { rememberSeats } from "./clock.js";

const [, , game, number] = location.pathname.split("/");
const base = `/api/tutorials/${game}/${number}`;
const $ = (id) => document.getElementById(id);
let book = null;
let view = null;
let lesson = null;
let busy = false;

function status(text, bad = false) {
  $("status").textContent = text;
  $("status").classList.toggle("bad", bad);
}

async function move(action, at) {
  if (busy) return;
  busy = true;
  for (const button of document.querySelectorAll("[data-action]")) button.disabled = true;
  try {
    draw(await api(`${base}/moves`, { method: "POST", body: JSON.stringify({ at, action }) }));
  } catch (error) {
    status(error.message, true);
  } finally {
    busy = false;
  }
}

function draw(current) {
  history.replaceState(null, "", `#at=${current.at}`);
  const obs = current.observation;
  const seat = current.seat;
  const seats = current.players.map((_, s) => (s === seat ? { kind: "human", online: true } : { kind: "bot", level: "scripted", online: true }));
  document.title = `matanui — tutorial: ${current.title}`;
  $("title").replaceChildren(el("strong", {}, current.title), " ",
    el("span", { class: "small" }, `(you: ${playerName(book, obs, seat)})`));
  status(current.finished ? "Tutorial complete" : `Step ${current.step.number} of ${current.total}`);
  const act = (id) => move(id, current.at);
  view.render($("board"), obs, { book, seat, legal: current.legal, act, players: current.players, seats });

  $("intro").hidden = current.at > 0 || current.played.length > 0;
  $("played").replaceChildren(...current.played.filter((p) => p.seat !== seat).map((p) =>
    el("li", { title: `${playerName(book, obs, p.seat)}, played by the tutorial` }, p.events.map((e) => e.text).join(" "), el("br"),
      el("span", { class: "why" }, p.explain))));
  const step = current.step;
  $("explain").hidden = !step;
  // The rule id the step teaches (docs/rules) is for the curious in the page's source, never on screen.
  $("explain").textContent = step ? step.explain : "";
  $("explain").dataset.teaches = step ? step.teaches : "";
  $("hint").hidden = !current.hint;
  $("hint").textContent = current.hint || "";

  const list = $("actions");
  list.replaceChildren(...current.legal.map((action) => el("li", {}, el("button", {
    dataset: { action: action.id }, class: current.hint && step && action.id === step.action ? "hint" : null,
    onclick: () => act(action.id),
  }, action.text))));
  if (current.hint && step) {
    for (const node of document.querySelectorAll(`#board [data-actions~="${CSS.escape(step.action)}"]`)) node.classList.add("hint");
  }
  drawOver(current);
  appendLog($("log"), current.log, { clear: true });
}

function drawOver(current) {
  const over = $("over");
  over.hidden = !current.finished;
  if (!current.finished) return;
  const next = lesson.next;
  over.replaceChildren(
    el("ul", { class: "outcome" }, current.outcome.map((o) => el("li", { class: o.reached ? "good" : "bad" }, `${o.reached ? "✓" : "✗"} ${o.says}`))),
    el("p", {}, current.finale),
    el("div", { class: "buttons" },
      playOnButton(current.current_player !== null, next ? "button" : "button primary"),
      next ? el("a", { class: "button primary", href: `/tutorials/${next.game}/${next.number}` }, `Next: ${next.title}`) : null,
      el("a", { class: "button", href: location.pathname }, "Start again"),
      el("a", { class: "button", href: "/" }, "Back to the lobby")));
}

// Where the tutorial leaves a game going on, the learner plays it on against a bot; where it
// ends the game, a new deal of the same characters. Either way alone against bots, so the
// game page offers its Hint button at every decision.
function playOnButton(goesOn, kind) {
  const button = el("button", { type: "button", class: kind, onclick: async () => {
    button.disabled = true;
    try {
      const created = await api(`${base}/play`, { method: "POST" });
      const mine = created.seats.find((s) => s.token);
      rememberTokens(created.id, [mine.token]);
      rememberSeats(created.id, [mine.seat]);
      location.href = mine.link;
    } catch (error) {
      button.disabled = false;
      status(error.message, true);
    }
  } }, goesOn ? "Play on from here against a bot, with hints" : "Play a game against a bot, with hints");
  return button;
}

async function start() {
  try {
    const [all, detail] = await Promise.all([api("/api/tutorials"), api(base)]);
    const index = all.findIndex((t) => t.game === game && String(t.number) === number);
    lesson = { ...detail, next: all[index + 1] && all[index + 1].game === game ? all[index + 1] : null };
    book = await pictureBook(game);
    view = await boardView(book);
    $("intro").textContent = lesson.intro;
    const at = Number(new URLSearchParams(location.hash.slice(1)).get("at")) || 0;
    draw(await api(`${base}/steps/${Math.min(Math.max(0, at), lesson.steps.length)}`));
  } catch (error) {
    status(error.message, true);
  }
}

start();
