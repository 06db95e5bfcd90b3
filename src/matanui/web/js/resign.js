// Resigning: a "Resign" button for a seated player while the game goes on, behind a confirm
// dialog ("Resign this game?" with Resign / Keep playing); the server commits it for the
// connection's seat (docs/protocol.md, "Resign"). While the game may still be aborted (some
// player has made fewer than two moves) the button is "Abort": the game ends unrated, with no
// winner (docs/ratings.md, "Aborted games"). A player who is out (resigned, or out of
// time) in a game that goes on (Quest for Makuta with three or more) reads that they are out
// and keeps watching.
import { el } from "./common.js";

let dialog = null;
const WORDS = {
  resign: { title: "Resign this game?", text: "You lose it, and you cannot take it back. The others play on or win.", button: "Resign" },
  abort: { title: "Abort this game?", text: "It ends now for everyone, unrated, with no winner: it is too early for a result to count.", button: "Abort" },
};

function confirmDialog(kind) {
  if (!dialog) {
    const keep = el("button", { type: "button", class: "primary", onclick: () => dialog.close() }, "Keep playing");
    const end = el("button", { type: "button", class: "danger", onclick: () => { dialog.close(); dialog.onEnd?.(); } });
    dialog = el("dialog", { class: "end resign-confirm", "aria-labelledby": "resign-title" },
      el("h2", { id: "resign-title" }), el("p", {}), el("div", { class: "end-buttons" }, end, keep));
    document.body.append(dialog);
  }
  const words = WORDS[kind];
  dialog.querySelector("h2").textContent = words.title;
  dialog.querySelector("p").textContent = words.text;
  dialog.querySelector(".danger").textContent = words.button;
  return dialog;
}

// What goes in `slot` for the shown connection and its view: the button, the notice that you
// are out, or nothing (watching, or the game is over).
export function drawResign(slot, connection, current, onProblem) {
  const seat = connection.seat;
  const out = current.observation.out || [];
  if (seat === null || current.over) return slot.replaceChildren();
  if (out.includes(seat)) {
    return slot.replaceChildren(el("p", { class: "out-notice", role: "status" }, "You are out of this game; you can still watch the others play."));
  }
  const kind = current.abortable ? "abort" : "resign";
  const button = el("button", { type: "button", class: "resign", onclick: () => {
    const ask = confirmDialog(kind);
    ask.onEnd = () => {
      if (!connection.ws || connection.ws.readyState !== WebSocket.OPEN) return onProblem("Not connected: try again in a moment.");
      connection.ws.send(JSON.stringify({ type: kind }));
    };
    ask.showModal();
  } }, WORDS[kind].button);
  slot.replaceChildren(button);
}
