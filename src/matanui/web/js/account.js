// Optional accounts (server/accounts.py, docs/protocol.md "Accounts"): the header's Sign in
// button and its dialog, who is signed in, the account's games, and claiming this browser's
// seats into the account. Anonymous play needs none of it.
import { api, el, forgetTokens, useCsrf } from "./common.js";

export const session = { account: null, csrf: null };

export async function loadSession() {
  try { Object.assign(session, await api("/api/session")); } catch { /* signed out, as before */ }
  useCsrf(session.csrf);
  return session;
}

function signedIn(state) {
  Object.assign(session, state);
  useCsrf(session.csrf);
}

// The account's games (any device), newest and your-turn first; [] when signed out.
export async function accountGames() {
  if (!session.account) return [];
  try { return await api("/api/account/games"); } catch { return []; }
}

// Put the seats this browser holds (their tokens) under the account; seats held by another
// account, or no longer on the server, stay as they are.
export async function claim(games) {
  for (const { id, tokens } of games) {
    for (const token of tokens) {
      await api("/api/account/claim", { method: "POST", body: JSON.stringify({ game_id: id, token }) }).catch(() => null);
    }
  }
}

// A seat this browser opened by its invite link while signed in is taken signed in: it goes
// under the account (so the game is rated, and listed on every device), and the server calls
// the player by the account's name unless the seat has a display name already. A seat an
// account holds stays as it is, and so does every seat of a game where this account holds one
// already: a creator looking at the invite link they are to send must not take their guest's.
export async function keepSeat(gameId, token, seat, seats) {
  if (!session.account || seat.account || seats.some((s) => s.account === session.account)) return;
  await api("/api/account/claim", { method: "POST", body: JSON.stringify({ game_id: gameId, token }) }).catch(() => null);
}

// A labelled field whose error is shown under it (and read with it: aria-describedby).
function field(label, name, type, autocomplete) {
  const id = `account-${name}`;
  const input = el("input", { id, name, type, autocomplete, required: true, "aria-describedby": `${id}-error` });
  const error = el("p", { id: `${id}-error`, class: "error small field-error" });
  return { input, error, row: el("div", { class: "field" }, el("label", { for: id }, label), input, error) };
}

// The server's rule refusals start with the field they concern ("password: ...").
function showError(fields, formError, message) {
  const [head, ...rest] = message.split(": ");
  const target = fields[head];
  if (target && rest.length) {
    target.error.textContent = capitalFirst(rest.join(": "));
    target.input.setAttribute("aria-invalid", "true");
    target.input.focus();
  } else formError.textContent = message;
}

const capitalFirst = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function dialog(title, fields, actions, formError) {
  const box = el("dialog", { class: "account-dialog", "aria-labelledby": "account-dialog-title" },
    el("form", { method: "dialog" }, el("h2", { id: "account-dialog-title" }, title),
      ...Object.values(fields).map((f) => f.row), formError,
      el("div", { class: "actions" }, ...actions,
        el("button", { type: "button", class: "quiet", onclick: () => box.close() }, "Cancel"))));
  box.addEventListener("close", () => box.remove());
  document.body.append(box);
  box.showModal();
  Object.values(fields)[0].input.focus();
  return box;
}

function clearErrors(fields, formError) {
  formError.textContent = "";
  for (const f of Object.values(fields)) { f.error.textContent = ""; f.input.removeAttribute("aria-invalid"); }
}

function signInDialog(onChange) {
  const fields = { name: field("User name", "name", "text", "username"), password: field("Password", "password", "password", "current-password") };
  const formError = el("p", { class: "error small", role: "alert" });
  const send = (path, button) => async (event) => {
    event.preventDefault();
    clearErrors(fields, formError);
    button.disabled = true;
    try {
      signedIn(await api(path, { method: "POST", body: JSON.stringify({ name: fields.name.input.value.trim(), password: fields.password.input.value }) }));
      box.close();
      onChange();
    } catch (failure) { showError(fields, formError, failure.message); }
    button.disabled = false;
  };
  const signIn = el("button", { type: "submit", class: "primary" }, "Sign in");
  const create = el("button", { type: "button" }, "Create account");
  signIn.addEventListener("click", send("/api/session", signIn));
  create.addEventListener("click", send("/api/account", create));
  fields.password.row.append(el("p", { class: "small help" }, "New account: a user name of 3 to 24 letters, digits, _ or -, and a password of at least 8 characters (a few words make a good one)."));
  const box = dialog("Sign in or create an account", fields, [signIn, create], formError);
}

function passwordDialog(onChange) {
  const fields = { old: field("Current password", "old", "password", "current-password"), password: field("New password", "new", "password", "new-password") };
  const formError = el("p", { class: "error small", role: "alert" });
  const change = el("button", { type: "submit", class: "primary" }, "Change password");
  change.addEventListener("click", async (event) => {
    event.preventDefault();
    clearErrors(fields, formError);
    try {
      signedIn(await api("/api/account/password", { method: "POST", body: JSON.stringify({ old: fields.old.input.value, new: fields.password.input.value }) }));
      box.close();
      onChange();
    } catch (failure) { showError(fields, formError, failure.message); }
  });
  const box = dialog("Change password", fields, [change], formError);
}

// Signing out leaves none of the account's games in this browser: the seats it holds here
// are forgotten (they stay the account's, listed wherever it signs in). A seat this browser
// kept without putting it in the account stays.
async function signOut() {
  const games = await accountGames();
  await api("/api/session", { method: "DELETE" }).catch(() => null);
  for (const game of games) forgetTokens(game.game_id);
  signedIn({ account: null, csrf: null });
}

// The header's part: "Sign in" when signed out; when in, the name (a link to the profile),
// Change password and Sign out.
export function mountAccount(place, onChange) {
  const draw = () => {
    const changed = () => { draw(); onChange(); };
    if (!session.account) {
      place.replaceChildren(el("button", { type: "button", class: "quiet", onclick: () => signInDialog(changed) }, "Sign in"));
      return;
    }
    place.replaceChildren(el("span", { class: "account-name" }, "Signed in as ",
      el("a", { href: `/players/${encodeURIComponent(session.account)}`, title: "Your profile: ratings and rated games" }, el("strong", {}, session.account))),
      el("button", { type: "button", class: "quiet", onclick: () => passwordDialog(changed) }, "Change password"),
      el("button", { type: "button", class: "quiet", onclick: async () => { await signOut(); changed(); } }, "Sign out"));
  };
  draw();
}
