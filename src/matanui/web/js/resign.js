// Resigning: a "Resign" button for a seated player while the game goes on, behind a confirm
// dialog ("Resign this game?" with Resign / Keep playing); the server commits it for the
// connection's seat (docs/protocol.md, "Resign"). A player who is out (resigned, or out of
// time) in a game that goes on (Quest for Makuta with three or more) reads that they are out
// and keeps watching.
import { el } from "./common.js";

let dialog = null;

function confirmDialog() {
  if (dialog) return dialog;
  const keep = el("button", { type: "button", class: "primary", onclick: () => dialog.close() }, "Keep playing");
  const resign = el("button", { type: "button", class: "danger", onclick: () => { dialog.close(); dialog.onResign?.(); } }, "Resign");
  dialog = el("dialog", { class: "end resign-confirm", "aria-labelledby": "resign-title" },
    el("h2", { id: "resign-title" }, "Resign this game?"),
    el("p", {}, "You lose it, and you cannot take it back. The others play on or win."),
    el("div", { class: "end-buttons" }, resign, keep));
  document.body.append(dialog);
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
  const button = el("button", { type: "button", class: "resign", onclick: () => {
    const ask = confirmDialog();
    ask.onResign = () => {
      if (!connection.ws || connection.ws.readyState !== WebSocket.OPEN) return onProblem("Not connected: try again in a moment.");
      connection.ws.send(JSON.stringify({ type: "resign" }));
    };
    ask.showModal();
  } }, "Resign");
  slot.replaceChildren(button);
}
