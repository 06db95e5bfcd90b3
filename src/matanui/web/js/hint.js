// The Hint control of the game page (docs/protocol.md, "Hints"): in a game that gives hints
// (against bots, hot-seat, or made with hints for everyone), at your own decision, a button asks the server what a strong
// player would do in your place; the answer names the move and why, and lights it up on the
// board and in the list. It stands until the position changes.
import { el } from "./common.js";

// `slot`: where the control goes; `connection`: the shown seat's (its `hint` is the latest
// answer); `current`: the view on screen; `light(id)`: show the move on the board (false: it
// has no place there); `act(id)`: take a move.
// `agreed`: the game was made with hints for everyone, which everyone at the table is told.
export function drawHint(slot, { offered, agreed, connection, current, send, light, act }) {
  slot.replaceChildren();
  if (agreed && !current.over) {
    slot.append(el("p", { class: "small hints-agreed" }, "Hints are on for every player in this game (agreed when it was made; it is unrated)."));
  }
  // A choice to make: one move only (a window with nothing to answer) needs no hint.
  const mine = connection.seat !== null && current.current_player === connection.seat && current.legal?.length > 1;
  if (!offered || !mine || current.over) return;
  const answer = connection.hint?.at === current.at ? connection.hint : null;
  if (answer) {
    const chance = Math.round(answer.chance * 100);
    // Where the move is: on the board (lit up, brought into sight), else (a pass, a move with
    // no place of its own) a button beside these words; its button in the list is marked too.
    const placed = light(answer.action);
    slot.append(el("p", { class: "hint-text", role: "status" },
      el("strong", {}, "Hint: "), answer.words, ". ", answer.reason, " ",
      el("span", { class: "small" }, `(about ${chance}% to win with it)`),
      placed ? "" : el("button", { type: "button", class: "primary hint-take", dataset: { action: answer.action },
        onclick: () => act(answer.action) }, current.legal.find((a) => a.id === answer.action)?.text || answer.words)));
    const listed = document.querySelectorAll(`#actions [data-action="${CSS.escape(answer.action)}"]`);
    for (const button of listed) button.classList.add("hinted");
    listed[0]?.scrollIntoView({ block: "nearest" });
    return;
  }
  const asking = connection.hintAsked === current.at;
  const button = el("button", { type: "button", class: "hint-button", disabled: asking, onclick: () => {
    connection.hintAsked = current.at;
    send({ type: "hint" });
    button.disabled = true;
    button.textContent = "Thinking…";
  } }, asking ? "Thinking…" : "Hint");
  slot.append(button);
}
