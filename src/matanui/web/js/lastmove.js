// The Last move line: what the latest moves did, one line per mover, the cause before its
// effect, and the viewer called "you". The events are the server's narration (one sentence
// each, in the third person, "they" for the seat the sentence is about).

// A card played by the event's seat (a stop card answering a window): that seat's own move,
// never the effect of the card it answers.
const OWN_ACT = (event) => event.card !== undefined;

// `events`: the latest action's, after those of the action that opened the window it closed
// (`answer`: the first event of the window's answer, else null). Lines: [{ seat, texts }], in
// order; a sentence with no seat (tokens laid face down) stays on the line before it.
export function moveLines(events, answer = null) {
  const lines = [];
  events.forEach((event) => {
    const line = lines.at(-1);
    const effect = event === answer && !OWN_ACT(event);
    if (line && (effect || event.seat === undefined || event.seat === null || event.seat === line.seat)) {
      line.texts.push(event.text);
    } else {
      lines.push({ seat: event.seat ?? null, texts: [event.text] });
    }
  });
  return lines;
}

const IRREGULAR = { is: "are", has: "have", was: "were", does: "do", goes: "go" };

// The verb that follows "you": draws -> draw, passes -> pass, carries -> carry.
function plain(verb) {
  if (IRREGULAR[verb]) return IRREGULAR[verb];
  if (/ies$/.test(verb)) return verb.slice(0, -3) + "y";
  if (/(ss|sh|ch|x|z)es$/.test(verb)) return verb.slice(0, -2);
  return verb.replace(/s$/, "");
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// `text` with `name` (the viewer's) told as "you": at a sentence's start with the verb made
// plain ("Ana draws" -> "You draw"), "Ana's" -> "your", elsewhere "you"; in a sentence about
// the viewer, "they/them/their" are the viewer too. A name followed by another capitalised
// word is part of a thing's name ("the Tahu Mask") and stays.
export function asYou(text, name) {
  if (!name) return text;
  const who = escape(name);
  const opening = new RegExp(`(^|[.:;!?] )${who} ([a-z]+)\\b`, "g");
  const about = text.search(opening) >= 0;
  let told = text
    .replace(opening, (_, start, verb) => `${start}You ${plain(verb)}`)
    .replace(new RegExp(`\\b${who}'s\\b`, "g"), "your")
    .replace(new RegExp(`\\b${who}\\b(?! [A-Z])`, "g"), "you")
    .replace(/^[a-z]/, (first) => first.toUpperCase());
  if (about) {
    told = told.replace(/\bThey\b/g, "You").replace(/\b(they|them)\b/g, "you")
      .replace(/\btheir\b/g, "your").replace(/\bthemselves\b/g, "yourself");
  }
  return told;
}
