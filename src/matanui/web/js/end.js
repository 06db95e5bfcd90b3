// The end of a game, from the viewer's side: "You won", "You lost", "Draw" or "Aborted" (a
// spectator reads who won), why, the figures that tell the story (from the game's view: parts built,
// masks won, keys...), how long it took, and what to do next.
import { capital, el } from "./common.js";

export function outcome(viewer, winners, name, aborted = false) {
  if (aborted) return "Aborted";
  if (!winners.length) return "Draw";
  if (viewer === null || viewer === undefined) {
    return `${capital(winners.map(name).join(" and "))} won`;
  }
  return winners.includes(viewer) ? "You won" : "You lost";
}

export function showEnd(dialog, { viewer, winners, aborted, name, why, figures, turns, minutes, buttons, players }) {
  const seats = Array.from({ length: players }, (_, seat) => seat);
  dialog.querySelector("#end-title").textContent = outcome(viewer, winners, name, aborted);
  dialog.classList.toggle("won", winners.includes(viewer));
  dialog.querySelector("#end-why").textContent = why;
  const rows = figures.map(({ label, values }) => el("tr", {}, el("th", { scope: "row" }, label),
    values.map((value, seat) => el("td", { class: winners.includes(seat) ? "winner" : "" }, String(value)))));
  const head = el("tr", {}, el("th", {}, ""), seats.map((seat) => el("th", { scope: "col" }, name(seat))));
  dialog.querySelector("#end-figures").replaceChildren(...(rows.length ? [head, ...rows] : []));
  const close = el("button", { onclick: () => dialog.close() }, "Look at the table");
  dialog.querySelector("#end-buttons").replaceChildren(...buttons,
    el("span", { class: "small" }, [turns ? `${turns} turn${turns === 1 ? "" : "s"}` : "", minutes ? `${minutes} minute${minutes === 1 ? "" : "s"}` : ""].filter(Boolean).join(" · ")), close);
  if (!dialog.open) dialog.showModal();
}
