// Telling a player it is their turn. While it is, the page title starts "● your turn" and
// the favicon carries a marker, so a tab in the background says so. When the turn arrives: a
// short soft chime (unless muted) and, while the tab is hidden, a desktop notification (only
// once the player turned notifications on, which is when the browser asks for permission).
// Spectators get none of this; hot-seat gets the title only (the cover says whose turn it is).
//
// The two toggles (accessible names "Sound" and "Notifications") sit in the header's #alerts.
// Both choices are the player's, not the game's: one localStorage key each, for every game.
// Sound is on by default: it is quiet, it can only play after the player has touched the page
// (browsers' autoplay rules), and nothing telling you it is your turn is the complaint.
import { el } from "./common.js";
import { icon } from "./views/icons.js";

const SOUND = "matanui:alerts:sound";    // "off" once muted
const NOTIFY = "matanui:alerts:notify";  // "on" once turned on (and permitted)
const MARK = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
  + '<circle cx="16" cy="16" r="13" fill="#f2b53a" stroke="#14161c" stroke-width="3"/></svg>';
const MARKED_ICON = `data:image/svg+xml,${encodeURIComponent(MARK)}`;

const favicon = document.querySelector("link[rel='icon']");
const plainIcon = favicon?.getAttribute("href") ?? "data:,";
let yours = null;      // null until the first view: a page opened on your turn does not chime
let audio = null;      // made at the first gesture on the page (autoplay rules)
let shown = null;      // the desktop notification on screen
let controls = null;   // the toggles, once mounted
let refused = false;   // the browser answered a request for permission with anything but yes

const soundOn = () => localStorage.getItem(SOUND) !== "off";
const notifyOn = () => localStorage.getItem(NOTIFY) === "on" && "Notification" in window && Notification.permission === "granted";
const hidden = () => document.visibilityState === "hidden";

// The page as it now stands: `yours` whether the viewer decides now (a person's decision, not a
// window that closes by itself); `title` the game's; `alerting` false for a spectator and in
// hot-seat, where nothing but the title changes.
export function showTurn({ yours: now, title, alerting }) {
  document.title = `${now ? "● your turn · " : ""}${title} — matanui`;
  const href = now ? MARKED_ICON : plainIcon;
  if (favicon && favicon.getAttribute("href") !== href) favicon.setAttribute("href", href);
  if (alerting && !controls) mount();
  const arrived = now && yours === false;
  yours = now;
  if (!now) return closeNotification();
  if (!arrived || !alerting) return;
  if (soundOn()) chime();
  if (notifyOn() && hidden()) notify(title);
}

// A two-note chime made here (no sound file): sine tones that swell and fade in half a second.
function chime() {
  if (!audio) return;
  if (audio.state === "suspended") audio.resume();
  const start = audio.currentTime + 0.02;
  for (const [i, frequency] of [659.25, 987.77].entries()) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    const at = start + i * 0.13;
    tone.type = "sine";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.1, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.5);
    tone.connect(gain).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.55);
  }
}

function unlockAudio() {
  if (audio || !window.AudioContext) return;
  audio = new AudioContext();
}
for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, unlockAudio, { capture: true, passive: true });

// Clicking the notification brings this tab to the front. A browser that shows notifications
// only through a service worker (Chrome on Android) refuses the constructor: the title and
// the favicon then say it alone.
function notify(title) {
  closeNotification();
  try {
    shown = new Notification("Your turn — matanui", { body: `${title}: it is your turn.`, tag: `matanui-turn-${location.pathname}` });
  } catch (error) {
    console.warn("no desktop notification:", error.message);
    return;
  }
  shown.onclick = () => { window.focus(); closeNotification(); };
}

function closeNotification() {
  shown?.close();
  shown = null;
}
document.addEventListener("visibilitychange", () => { if (!hidden()) closeNotification(); });

// The toggles: two icon buttons whose pressed state is the choice; the notification toggle
// asks the browser for permission only when it is turned on.
function mount() {
  const place = document.getElementById("alerts");
  if (!place) return;
  const sound = toggle("Sound", "speaker", "Play a short chime when it is my turn", () => {
    localStorage.setItem(SOUND, soundOn() ? "off" : "on");
    if (soundOn()) chime();  // turned on: this is what it sounds like
    refresh();
  });
  const bell = toggle("Notifications", "bell", "Notify me when it is my turn", async () => {
    if (notifyOn()) localStorage.setItem(NOTIFY, "off");
    else if (await permitted()) localStorage.setItem(NOTIFY, "on");
    refresh();
  });
  controls = { sound, bell };
  place.setAttribute("role", "group");
  place.setAttribute("aria-label", "Turn alerts");
  place.replaceChildren(sound, bell);
  refresh();
}

// Asked on every turning on: a browser that already decided answers at once, without a prompt.
async function permitted() {
  if (!("Notification" in window)) return false;
  refused = (await Notification.requestPermission()) !== "granted";
  return !refused;
}

function toggle(name, picture, hint, onclick) {
  return el("button", { type: "button", class: "alert-toggle", "aria-label": name, title: hint, onclick }, icon(picture));
}

function refresh() {
  controls.sound.setAttribute("aria-pressed", String(soundOn()));
  controls.bell.setAttribute("aria-pressed", String(notifyOn()));
  // Why turning them on does nothing, where it cannot.
  controls.bell.title = !("Notification" in window) ? "This browser cannot show notifications"
    : Notification.permission === "denied" ? "Notifications are blocked for this site: allow them in the browser's site settings"
      : refused ? "The browser did not allow notifications: click to ask again" : "Notify me when it is my turn";
}
