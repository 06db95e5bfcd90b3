// Clocks (docs/protocol.md, "Pace and clocks"): each seat's clock on the game page, the
// choice the other players get when a clock runs out (end it now, wait, or in a game of three
// or more a bot), what the player who ran out reads, the lobby's pace choices and filter,
// and which seats of a game this browser holds (for "Your games": your turn first).
import { el } from "./common.js";

// The lobby's paces, as POST /api/games takes them.
export const PACES = [
  { label: "Real-time: 2 min a move + 5 min bank", pace: { kind: "realtime", move_seconds: 120, bank_seconds: 300 } },
  { label: "Turn-based: 24 h a move", pace: { kind: "turn_based", move_seconds: 86400 } },
  { label: "Untimed", pace: { kind: "untimed" } },
];
export const PACE_NAMES = { realtime: "real-time", turn_based: "turn-based", untimed: "untimed" };
const RED_UNDER = 10;  // seconds: a clock this low is shown in red
const TURN_BASED_GRACE = 3600;

// "1:05", "23 h 59 min": a count of seconds as a person reads it.
export function duration(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// "real-time 2:00 + 5:00", for the lobby's lists.
export function paceText(pace) {
  if (!pace || pace.kind === "untimed") return "untimed";
  const bank = pace.kind === "realtime" && pace.bank_seconds ? ` + ${duration(pace.bank_seconds)}` : "";
  return `${PACE_NAMES[pace.kind]} ${duration(pace.move_seconds)}${bank}`;
}

// The seats of each game this browser holds, beside their tokens (common.js).
const SEATS = (gameId) => `matanui:seats:${gameId}`;
export function rememberSeats(gameId, seats) {
  const held = new Set([...heldSeats(gameId), ...seats]);
  localStorage.setItem(SEATS(gameId), JSON.stringify([...held]));
}
export function heldSeats(gameId) {
  try { return JSON.parse(localStorage.getItem(SEATS(gameId)) || "[]"); } catch { return []; }
}
// Whether it is this browser's turn in a game of the lobby's list.
export function yourTurn(game) {
  return game.status !== "finished" && game.to_move !== null && heldSeats(game.id).includes(game.to_move);
}

let ticking = null;

// Draw the clocks into `box` (hidden when the game is untimed) and keep them counting down.
// `name(seat)` is how the page names a seat; `send(message)` sends on the shown connection.
// `abortable`: the game may still be aborted (someone has made fewer than two moves), so a
// clock that runs out aborts it instead of losing it.
export function drawClocks(box, clock, { seats, mySeat, name, send, abortable }) {
  clearInterval(ticking);
  const notice = document.getElementById("time-out");  // beside your decision: in sight on a phone
  if (notice) notice.hidden = !clock || clock.expired !== mySeat || mySeat === null;
  box.hidden = !clock;
  if (!clock) return box.replaceChildren();
  const lines = seats.map((seat, i) => {
    const time = el("span", { class: "clock-time" });
    const line = el("li", { class: "clock", dataset: { seat: i } }, el("span", { class: "clock-who" }, name(i)), " ", time);
    return { i, line, time };
  });
  const choice = el("div", { class: "clock-choice", role: "alert" });
  const grace = el("span", {});  // how long until the server ends the late seat's game
  const graceEnds = clock.deadline + (clock.kind === "realtime" ? clock.move_seconds : TURN_BASED_GRACE);
  const tick = () => {
    const now = Date.now() / 1000;
    grace.textContent = duration(graceEnds - now);
    for (const { i, line, time } of lines) {
      const running = clock.seat === i && clock.deadline !== null;
      const left = running ? clock.deadline - now : null;
      const bank = clock.kind === "realtime" ? ` · bank ${duration(clock.banks[i])}` : "";
      line.classList.toggle("running", clock.seat === i);
      line.classList.toggle("low", running && left < RED_UNDER);
      time.textContent = seats[i].out ? "out" : seats[i].kind === "bot" ? "bot"
        : running && clock.absent ? `not here yet: ${duration(left)} to come`
        : running ? `${duration(left)} left${bank}` : bank.slice(3);
    }
  };
  tick();
  ticking = setInterval(tick, 250);
  box.replaceChildren(el("h2", { class: "small" }, `Clocks (${PACE_NAMES[clock.kind]})`), el("ol", { class: "clocks" }, ...lines.map((l) => l.line)), choice);
  if (clock.expired === null || clock.expired === undefined) return;
  const late = clock.expired;
  const who = name(late);
  const why = clock.absent ? `${who} has not come` : `${who}'s time ran out`;
  const few = seats.length >= 3;
  const ending = abortable ? "the game is aborted: it ends unrated, with no winner"
    : few ? `${who} is out of the game` : `${who} loses on time`;
  if (mySeat === late) {
    const words = `Your time ran out. Move now if you can: the others may end it (${abortable ? "the game is then aborted, unrated"
      : few ? "you are then out of the game" : "you then lose on time"}) or wait for you.`;
    choice.replaceChildren(el("p", { class: "clock-ran-out" }, words));
    if (notice) notice.textContent = words;
    return;
  }
  if (mySeat === null) return choice.replaceChildren(el("p", {}, `${why}; the players choose what happens.`));
  const buttons = [el("button", { type: "button", class: "danger", onclick: () => send({ type: "expel", seat: late }) },
    abortable ? "Abort the game" : few ? `${who} is out` : "Claim the win")];
  if (few && !abortable) buttons.push(el("button", { type: "button", onclick: () => send({ type: "replace", seat: late }) }, "Replace with a bot"));
  if (clock.waited) {
    choice.replaceChildren(el("p", {}, `${why}: you are waiting for them. You may still end it: `, ending, "."), ...buttons);
  } else {
    buttons.push(el("button", { type: "button", onclick: () => send({ type: "wait", seat: late }) }, "Wait"));
    choice.replaceChildren(el("p", {}, `${why}. Unless you choose, in `, grace, ` ${ending}.`), ...buttons);
  }
}
