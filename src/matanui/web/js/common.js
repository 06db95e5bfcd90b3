// What every page shares: talking to the HTTP API, remembering seat tokens, loading a
// game's picture book and its board view, and small DOM helpers for the boards (tooltips,
// pan and zoom, legends).
import Panzoom from "../vendor/panzoom/panzoom.es.js";

// The signed-in session's CSRF token (account.js sets it): every write sends it.
let csrfToken = null;
export function useCsrf(token) { csrfToken = token; }

export async function api(path, options = {}) {
  const write = options.method && options.method !== "GET";
  const response = await fetch(path, {
    ...options,
    headers: { "content-type": "application/json", ...(options.headers || {}),
      ...(write && csrfToken ? { "x-csrf-token": csrfToken } : {}) },
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message || `${response.status} ${response.statusText}`);
  return body;
}

// Seat tokens live in this browser only: taken from the invite link's fragment (never sent
// to the server in a URL), kept in localStorage so that a reload resumes the seat.
const KEY = (gameId) => `matanui:tokens:${gameId}`;

export function tokensFor(gameId) {
  const hash = new URLSearchParams(location.hash.slice(1));
  const linked = hash.get("tokens") ? hash.get("tokens").split(",") : hash.get("token") ? [hash.get("token")] : null;
  const held = heldTokens(gameId);
  if (!linked) return held;
  history.replaceState(null, "", location.pathname + location.search);
  // A link for another seat of a game this browser already plays must not silently take
  // the place of the seat it holds (a forwarded invite, a second tab): ask first.
  const differs = held.length && linked.join(",") !== held.join(",");
  if (differs && !confirm("This browser already plays a seat of this game. Open the seat of this link " +
                          "instead? (Cancel keeps your seat.)")) return held;
  localStorage.setItem(KEY(gameId), JSON.stringify(linked));
  return linked;
}

export function rememberTokens(gameId, tokens) {
  localStorage.setItem(KEY(gameId), JSON.stringify(tokens));
}

export function heldTokens(gameId) {
  return JSON.parse(localStorage.getItem(KEY(gameId)) || "[]");
}

// Forget a game's seats here: their tokens, and their numbers (clock.js rememberSeats),
// which would otherwise still say "your turn".
export function forgetTokens(gameId) {
  localStorage.removeItem(KEY(gameId));
  localStorage.removeItem(`matanui:seats:${gameId}`);
}

// Every game this browser holds a seat in (the lobby's "Your games").
export function heldGames() {
  const prefix = KEY("");
  return Object.keys(localStorage).filter((key) => key.startsWith(prefix) && heldTokens(key.slice(prefix.length)).length)
    .map((key) => key.slice(prefix.length));
}

// A game's picture book, on the data pack it is played with (`data`: {name, hash}, or none
// for the built-in data): a pack's own cards and boards are the ones to draw.
const books = new Map();
export async function pictureBook(game, data = null) {
  const key = data ? `${game}?data=${encodeURIComponent(data.hash)}` : game;
  if (!books.has(key)) books.set(key, await api(`/api/catalog/${key}`));
  return books.get(key);
}

// Which data a game uses, in words: a pack's name, or the built-in data.
export function dataText(data) {
  return data ? `data pack “${data.name}”` : "built-in data";
}

// A game's board view, as its picture book (or its catalog entry) names it (the game's
// descriptor): views/<view>.js, the plain one for a game without its own. A view with a
// stylesheet of its own names it (`stylesheet`), and it is in the page before the view draws
// (`styled: false` where only the view's lobby picture is wanted).
const VIEW_NAME = /^[a-z][a-z0-9_-]*$/;
export async function boardView(book, { styled = true } = {}) {
  const name = VIEW_NAME.test(book.view || "") ? book.view : "plain";
  const view = await import(`./views/${name}.js`);
  if (styled && view.stylesheet) await stylesheet(view.stylesheet);
  return view;
}

// A stylesheet added once, right after the site's own (where the pages used to link it), so
// that the cascade is the same whichever page loads it; resolved once it has loaded.
const sheets = new Map();
function stylesheet(href) {
  if (!sheets.has(href)) {
    sheets.set(href, new Promise((resolve) => {
      const link = el("link", { rel: "stylesheet", href, onload: resolve, onerror: resolve });
      const site = document.querySelector('link[rel="stylesheet"][href$="/css/style.css"]');
      if (site) site.after(link); else document.head.append(link);
    }));
  }
  return sheets.get(href);
}

// The game's key (legend.toml, served as the picture book's `legend`): each symbol by its id
// and by its group and letter (`byLetter.space.K`), with its glyph, name and meaning. The
// views draw their marks, and take every printed thing's name and meaning from here.
const keys = new WeakMap();
export function keyOf(book) {
  if (!keys.has(book)) {
    const found = { id: {}, byLetter: {} };
    for (const symbol of book.legend || []) {
      found.id[symbol.id] = symbol;
      if (symbol.letter) (found.byLetter[symbol.group] ||= {})[symbol.letter] = symbol;
    }
    keys.set(book, found);
  }
  return keys.get(book);
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") {
      for (const [name, data] of Object.entries(value)) if (data !== undefined && data !== null) node.dataset[name] = data;
    }
    else if (key === "style") node.style.cssText = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A seat's name as every surface shows it: the display name its person gave, else its
// character's name ("Gali Nuva"). Plain text: put it in the page as text only (a name is
// whatever its person typed). The viewer's own seat reads "you" where the caller says so.
export function playerName(book, obs, seat, seats) {
  return seats?.[seat]?.name || characterName(book, obs.players[seat]);
}

// A name or a phrase at the start of a sentence ("you" -> "You").
// A name at the start of a sentence: the viewer's "you" as "You"; a player's name stays as
// they typed it ("ana_r1" is not "Ana_r1").
export const capital = (text) => text.replace(/^you\b/, "You");

export function characterName(book, id) {
  return book.components?.toa?.[id]?.name || book.components?.characters?.[id]?.name || id;
}

// Moves that play out: `render` redraws `root`; every element with a data-flip key that has
// changed place (another space of the map, from a hand to a pile) glides from where it was to
// where it is now, and one that is new grows in (or comes from its data-flip-from: a card out
// of a hand whose cards are face down). An element that only shifted inside the same
// place (a panel grew above it) does not move. The Web Animations API runs it; nothing moves
// for a reader who asked for less motion.
const STILL = window.matchMedia("(prefers-reduced-motion: reduce)");
const placeOf = (node) => node.parentElement?.dataset.space || node.parentElement?.className || "";
export function flip(root, render) {
  const before = new Map();
  for (const node of root.querySelectorAll("[data-flip]")) before.set(node.dataset.flip, [node.getBoundingClientRect(), placeOf(node)]);
  render();
  if (STILL.matches || !before.size) return;
  for (const node of root.querySelectorAll("[data-flip]")) {
    const [was, place] = before.get(node.dataset.flip) || before.get(node.dataset.flipFrom) || [];
    if (!was) {
      if (!node.closest(".zoom-content")) node.animate([{ opacity: 0, transform: "scale(.6)" }, { opacity: 1, transform: "none" }], { duration: 350, easing: "ease-out" });
      continue;
    }
    if (place === placeOf(node)) continue;
    const now = node.getBoundingClientRect();
    // Inside a board that zooms, a translation is in the board's own (scaled) pixels.
    const zoomed = node.closest(".zoom-content");
    const scale = zoomed ? new DOMMatrix(getComputedStyle(zoomed).transform).a || 1 : 1;
    const dx = (was.left - now.left) / scale;
    const dy = (was.top - now.top) / scale;
    node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 450, easing: "ease-in-out" });
  }
}

// Tooltips from tippy.js (loaded by the page as a classic script): every element of `root`
// with a data-tip, now or after any redraw, shows it on hover or keyboard focus, and on a
// long press on a phone. Called on every redraw (the next move): a tooltip whose element was
// just replaced would otherwise stay on the screen. A click or tap closes every tooltip (the
// person has chosen; the tip would cover what follows), and a tip never covers the Last move
// line: near it, it opens below its element.
export function tooltips(root) {
  if (!window.tippy) return;
  window.tippy.hideAll({ duration: 0 });
  if (root.dataset.tips) return;
  root.dataset.tips = "on";
  window.tippy.delegate(root, {
    target: "[data-tip]", content: (node) => node.dataset.tip, touch: ["hold", 450],
    maxWidth: 300, delay: [250, 0], appendTo: () => document.body,
    onShow: (instance) => {  // not for an element just redrawn away, nor one just clicked
      if (!instance.reference.isConnected || performance.now() < pressedUntil) return false;
      instance.setProps({ placement: nearLastMove(instance.reference) ? "bottom" : "top" });
      shownTips.add(instance);
    },
    onHidden: (instance) => shownTips.delete(instance),
  });
}

const TIP_ROOM = 140;  // px above an element a tooltip may need (five lines at 300 px wide)
// Whether a tooltip above this element could reach the Last move line (above the board).
function nearLastMove(reference) {
  const line = document.getElementById("last-move")?.getBoundingClientRect();
  if (!line?.height) return false;
  const box = reference.getBoundingClientRect();
  return box.top >= line.top && box.top - TIP_ROOM < line.bottom;
}

// A click closes the tips, and the focus it gives its element opens none. (A touch is tippy's:
// a long press opens a tip, a tap elsewhere closes it.)
const PRESS_MS = 300;
let pressedUntil = 0;
document.addEventListener("pointerdown", (event) => {
  if (event.pointerType === "touch") return;
  pressedUntil = performance.now() + PRESS_MS;
  window.tippy?.hideAll({ duration: 0 });
}, { capture: true });

// The tooltips on screen. One whose element leaves the page (a redraw of part of the board,
// under a pointer that has not moved) would be drawn in the page's top-left corner: it goes
// with its element.
const shownTips = new Set();
new MutationObserver(() => {
  for (const instance of shownTips) {
    if (!instance.reference.isConnected) {
      shownTips.delete(instance);
      instance.unmount();
    }
  }
}).observe(document.body, { childList: true, subtree: true });

// A board larger than its frame: drag (or swipe) to pan, wheel or pinch to zoom, and buttons
// for both, from @panzoom/panzoom. The frame is made once per board and kept across redraws,
// so a new observation does not lose the reader's place; `mount()` starts panzoom once the
// frame is in the page (it measures the page).
export function zoomFrame(cls) {
  const content = el("div", { class: `zoom-content ${cls}` });
  const frame = el("div", { class: "zoom-frame" }, content);
  const board = { frame, content, zoom: null };
  board.mount = () => {
    board.zoom = Panzoom(content, { canvas: true, origin: "0 0", minScale: 0.25, maxScale: 3, step: 0.25,
      cursor: "grab", excludeClass: "no-pan" });
    frame.addEventListener("wheel", (event) => { board.fitted = false; board.zoom.zoomWithWheel(event); });
  };
  // The whole board, as large as fits (within the zoom's limits) and centred in the frame.
  board.fit = () => {
    const { maxScale, minScale } = board.zoom.getOptions();
    const scale = Math.max(minScale, Math.min(maxScale, frame.clientWidth / content.offsetWidth, frame.clientHeight / content.offsetHeight));
    board.zoom.zoom(scale, { animate: false });
    board.centre(content.offsetWidth / 2, content.offsetHeight / 2);
    board.fitted = true;
  };
  // Bring a point of the content (in unscaled pixels) to the middle of the frame, and keep it
  // there when the frame changes size (a phone turned, a window narrowed, a longer last move
  // above it); a board shown whole stays whole.
  board.centre = (x, y) => {
    board.fitted = false;
    board.area = null;
    board.point = [x, y];
    const scale = board.zoom.getScale();
    board.zoom.pan(frame.clientWidth / 2 / scale - x, frame.clientHeight / 2 / scale - y, { animate: false });
  };
  // A part of the content (unscaled pixels: left, top, right, bottom) in view whole, at full
  // size where it fits (every space a tap target), else as large as fits; kept so on resizes.
  board.show = (area) => {
    const [left, top, right, bottom] = area;
    const { minScale } = board.zoom.getOptions();
    const scale = Math.max(minScale, Math.min(1, frame.clientWidth / (right - left), frame.clientHeight / (bottom - top)));
    board.zoom.zoom(scale, { animate: false });
    board.centre((left + right) / 2, (top + bottom) / 2);
    board.area = area;
  };
  new ResizeObserver(() => {
    if (!board.zoom) return;
    if (board.fitted) board.fit();
    else if (board.area) board.show(board.area);
    else if (board.point) board.centre(...board.point);
  }).observe(frame);
  const button = (text, tip, onclick) => el("button", { class: "zoom-button", "aria-label": tip, "data-tip": tip, onclick }, text);
  const zooming = (change) => () => { board.fitted = false; change(); };
  board.tools = el("div", { class: "zoom-tools" },
    button("+", "Zoom in (or pinch, or the mouse wheel)", zooming(() => board.zoom.zoomIn())),
    button("−", "Zoom out", zooming(() => board.zoom.zoomOut())),
    button("⤢", "Show the whole board", board.fit),
    button("1:1", "Actual size", zooming(() => board.zoom.zoom(1))));
  return board;
}

// A symbol's mark as a board draws it, for a key (a legend, the How to play page's table).
export function keyMark(cls, ...children) {
  return el("span", { class: `legend-mark ${cls}`, "aria-hidden": "true" }, ...children);
}

// A legend: one row per symbol, with the mark as the board draws it, its name and what it does.
export function legend(title, rows) {
  return el("details", { class: "legend" }, el("summary", {}, title),
    el("dl", {}, rows.map(({ mark, name, text }) => [el("dt", {}, mark, " ", el("strong", {}, name)), el("dd", {}, text)])));
}

// One line of the log per event, in the rulebook's words; the newest at the bottom.
export function appendLog(list, events, { clear = false } = {}) {
  if (clear) list.replaceChildren();
  for (const event of events) {
    list.append(el("li", { class: `ev ev-${event.kind}`, dataset: { seat: event.seat ?? "" } }, event.text));
  }
  list.scrollTop = list.scrollHeight;
}
