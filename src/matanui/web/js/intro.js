// The lobby's first screen: each game as a card with our picture of it, what it is (its
// introduction from the catalog: players, a typical game's length, how hard it is to learn),
// its tutorials, its How to play page, and one click to play it against a bot.
import { api, boardView, el, rememberTokens } from "./common.js";
import { gamePicture } from "./pictures.js";

const DIFFICULTY = { easy: "easy to learn", medium: "moderate to learn", hard: "hard to learn" };

// The level "Play against a bot" gives: the game's sensible player (the catalog's words say so).
const QUICK_LEVEL = "medium";

function facts(intro) {
  const players = intro.min_players === intro.max_players ? `${intro.min_players} players`
    : `${intro.min_players}–${intro.max_players} players`;
  return el("ul", { class: "facts", "aria-label": "At a glance" },
    el("li", {}, players), el("li", {}, `about ${intro.minutes} min`), el("li", {}, DIFFICULTY[intro.difficulty]));
}

// You against one bot at `medium`, default options; the game opens on your seat.
async function playAgainstBot(game, button, error) {
  button.disabled = true;
  error.textContent = "";
  try {
    const level = game.levels.includes(QUICK_LEVEL) ? QUICK_LEVEL : game.levels[0];
    const seats = [{ kind: "human" }, ...Array.from({ length: game.min_players - 1 }, () => ({ kind: "bot", level }))];
    const created = await api("/api/games", { method: "POST", body: JSON.stringify({ game: game.id, seats }) });
    const mine = created.seats.find((seat) => seat.token);
    rememberTokens(created.id, [mine.token]);
    location.href = mine.link;
  } catch (failure) {
    error.textContent = `The game could not be started: ${failure.message}`;
    button.disabled = false;
  }
}

function tutorialLinks(tutorials) {
  if (!tutorials.length) return null;
  return el("div", { class: "learn" }, el("h4", {}, "Learn by playing"),
    el("ul", { class: "tutorial-list" }, tutorials.map((t) => el("li", {},
      el("a", { class: "tutorial-link", href: `/tutorials/${t.game}/${t.number}` },
        el("span", { class: "tutorial-title" }, t.title),
        el("span", { class: "small" }, `${t.steps} steps · ${t.summary}`))))));
}

function gameCard(game, view, tutorials) {
  const error = el("p", { class: "error small", role: "alert" });
  const play = el("button", { class: "primary play-bot", onclick: () => playAgainstBot(game, play, error) }, "Play against a bot");
  return el("li", { class: "game-card", dataset: { game: game.id } },
    gamePicture(view, game.id),
    el("div", { class: "game-card-body" },
      el("h3", {}, game.title),
      el("p", { class: "summary" }, game.introduction.summary),
      facts(game.introduction),
      el("div", { class: "card-buttons" }, play,
        el("a", { class: "button", href: game.how_to_play }, "How to play")),
      error,
      tutorialLinks(tutorials.filter((t) => t.game === game.id))));
}

export async function drawGameCards(catalog) {
  const list = document.getElementById("game-cards");
  let tutorials = [];
  try {
    tutorials = await api("/api/tutorials");
  } catch {
    // The cards still offer play and How to play; only their tutorial links are missing.
  }
  const views = await Promise.all(catalog.map((game) => boardView(game, { styled: false })));
  list.replaceChildren(...catalog.map((game, index) => gameCard(game, views[index], tutorials)));
}
