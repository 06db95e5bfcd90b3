// The game page's chat panel and the seats' presence (docs/protocol.md, "Chat and presence").
// Every line and name is whatever a person typed: it goes into the page as text only
// (textContent, via el()), never as markup. Muting is this browser's: per game and seat, kept
// in localStorage. On a phone the panel starts collapsed and its summary counts unread lines.
import { el } from "./common.js";

const $ = (id) => document.getElementById(id);
const PRESENCE_WORDS = { here: "here", away: "away", gone: "gone", out: "out of the game" };

function muteKey(gameId) { return `matanui:mute:${gameId}`; }

function loadMuted(gameId) {
  try {
    const seats = JSON.parse(localStorage.getItem(muteKey(gameId)) || "[]");
    return new Set(Array.isArray(seats) ? seats.filter(Number.isInteger) : []);
  } catch {
    return new Set();
  }
}

// The chat of one game. `send(message)` sends on the page's connection; `sent()` follows a
// line sent (the page may bring a waiting decision's board back into sight).
export function chatPanel(gameId, send, sent = () => {}) {
  const panel = $("chat-panel");
  const muted = loadMuted(gameId);
  let lines = [];
  let mySeat = null;
  let unread = 0;
  if (window.matchMedia("(max-width: 760px)").matches) panel.open = false;

  function drawUnread() {
    $("chat-unread").textContent = unread && !panel.open ? ` (${unread} unread)` : "";
  }

  function lineNode(line) {
    const spectator = line.channel === "spectators";
    return el("li", { class: spectator ? "spectators" : null, dataset: { seat: line.seat ?? "" } },
      el("span", { class: "speaker" }, `${line.name}${spectator ? " (spectators)" : ""}: `),
      el("span", { class: "said" }, line.text));
  }

  function drawLines() {
    const list = $("chat-lines");
    const shown = lines.filter((line) => line.seat === null || !muted.has(line.seat));
    list.replaceChildren(...shown.map(lineNode));
    list.scrollTop = list.scrollHeight;
  }

  function toggleMute(seat) {
    if (muted.has(seat)) muted.delete(seat); else muted.add(seat);
    localStorage.setItem(muteKey(gameId), JSON.stringify([...muted]));
    drawLines();
  }

  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const box = $("chat-text");
    const text = box.value.trim();
    if (!text) return;
    send({ type: "chat", text });
    box.value = "";
    $("chat-problem").textContent = "";
    sent();
  });
  panel.addEventListener("toggle", () => { if (panel.open) unread = 0; drawUnread(); });

  return {
    // A welcome: the newest lines, and whether this page may chat at all (a game of people,
    // not hot-seat: `open`).
    welcome(message, open) {
      panel.hidden = !open;
      mySeat = message.seat;
      lines = message.chat || [];
      drawLines();
    },
    add(newLines) {
      const known = new Set(lines.map((line) => line.n));
      const fresh = newLines.filter((line) => !known.has(line.n));
      lines = lines.concat(fresh).sort((a, b) => a.n - b.n);
      if (!panel.open) unread += fresh.filter((line) => line.seat !== mySeat && !muted.has(line.seat)).length;
      drawUnread();
      drawLines();
    },
    problem(text) { $("chat-problem").textContent = text; },
    isMuted: (seat) => muted.has(seat),
    toggleMute,
  };
}

// Each seat's name with a dot for here / away / gone (the words for screen readers), and, for
// the other people's seats of a game with chat, a mute toggle.
export function drawPresence(seats, nameOf, mySeat, chat, chatOpen) {
  const list = $("presence");
  list.replaceChildren(...seats.map((seat, i) => {
    // A seat out of the game (resigned, out of time) is no longer at the table, here or not.
    const state = seat.out ? "out" : seat.presence || (seat.online ? "here" : "gone");
    const item = el("li", { class: `presence-${state}` },
      el("span", { class: "dot", "aria-hidden": "true" }),
      el("span", {}, nameOf(i), seat.out ? el("span", { class: "small", "aria-hidden": "true" }, " (out)") : ""),
      el("span", { class: "sr-only" }, ` (${PRESENCE_WORDS[state] || state})`));
    if (chatOpen && seat.kind !== "bot" && i !== mySeat) {
      const on = chat.isMuted(i);
      item.append(el("button", {
        class: "mute small", type: "button", "aria-pressed": on ? "true" : "false",
        "aria-label": `Mute ${nameOf(i)} in the chat`, onclick: () => { chat.toggleMute(i); drawPresence(seats, nameOf, mySeat, chat, chatOpen); },
      }, on ? "Muted" : "Mute"));
    }
    return item;
  }));
}

// The replay page: the players' lines said up to the step shown (`after` <= the step).
export function drawReplayChat(list, lines, step) {
  const said = lines.filter((line) => line.after <= step);
  list.replaceChildren(...said.map((line) => el("li", {},
    el("span", { class: "speaker" }, `${line.name}: `), el("span", { class: "said" }, line.text))));
  list.closest("section").hidden = !lines.length;
}
