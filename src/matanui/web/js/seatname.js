// A name at the table for someone who came by an invite link (the lobby asks those who join an
// open seat): offered once, above the decision, in a game with other people; the server tells
// everyone (a fresh welcome, the story retold with the name). "No thanks" is remembered.
import { api, el } from "./common.js";

const MAX_NAME = 24;
const asked = (gameId) => `matanui:named:${gameId}`;

export function nameForm(gameId, token, seat, seats, onError) {
  const people = (seats || []).filter((s) => s.kind !== "bot").length;
  if (!token || seat === null || people < 2 || seats[seat]?.name || localStorage.getItem(asked(gameId))) return null;
  const input = el("input", { type: "text", maxlength: MAX_NAME, "aria-label": "Your name at this table", placeholder: "Your name" });
  const done = () => { localStorage.setItem(asked(gameId), "1"); form.remove(); };
  const form = el("form", { class: "seat-name", onsubmit: async (event) => {
    event.preventDefault();
    try {
      await api(`/api/games/${gameId}/name`, { method: "POST", body: JSON.stringify({ token, name: input.value.trim() || null }) });
      done();
    } catch (error) { onError(error.message); }
  } }, el("label", {}, "What should the others call you? ", input), el("button", { class: "primary", type: "submit" }, "Save"),
  el("button", { type: "button", onclick: done }, "No thanks"));
  return form;
}
