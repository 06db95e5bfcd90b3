// The lobby's Tutorials section: every game's tutorials, each a link to its page.
import { api, el } from "./common.js";

async function listTutorials() {
  const list = document.getElementById("tutorial-list");
  try {
    const [catalog, tutorials] = await Promise.all([api("/api/catalog"), api("/api/tutorials")]);
    const titles = Object.fromEntries(catalog.map((g) => [g.id, g.title]));
    list.replaceChildren(...tutorials.map((t) => el("li", {}, el("a", { href: `/tutorials/${t.game}/${t.number}` },
      el("strong", {}, titles[t.game] || t.game), " · ", t.title, el("div", { class: "small" }, `${t.summary} (${t.steps} steps)`)))));
  } catch (error) {
    list.replaceChildren(el("li", { class: "error" }, `The tutorials could not be loaded: ${error.message}`));
  }
}

listTutorials();
