// Small drawn icons for the board pieces (24 x 24 SVG paths, coloured by CSS through
// currentColor), so that a Kanohi, a key, a Turaga, a Rahi, a lock, a portal, a gate and the
// start pile each have a shape of their own rather than a letter.
const PATHS = {
  // a mask: a rounded face with two eye holes
  kanohi: "M4 5c2-2 14-2 16 0v6c0 5-4 9-8 11-4-2-8-6-8-11zM7 9v2h4V9zm6 0v2h4V9z",
  // a key: ring, shaft and teeth
  key: "M7 3a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm0 3a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm4 3h11v3h-2v3h-3v-3h-2v3h-2v-3h-2z",
  // a Turaga: an elder's staff with its round head
  turaga: "M12 1a4 4 0 1 1 0 8 4 4 0 0 1 0-8zm-1.5 9h3v13h-3z",
  // a Rahi: three claw marks
  rahi: "M5 3l3 0 4 18-3 0zM10 2l3 0 3 19-3 0zM15 3l3 0 1 17-3 0z",
  // a lock: shackle and body
  lock: "M7 10V7a5 5 0 0 1 10 0v3h2v12H5V10zm3 0h4V7a2 2 0 0 0-4 0z",
  // a portal: two rings
  portal: "M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm0 3a7 7 0 1 0 0 14 7 7 0 0 0 0-14zm0 3a4 4 0 1 1 0 8 4 4 0 0 1 0-8z",
  // a gate: an arch
  gate: "M3 22V10a9 9 0 0 1 18 0v12h-5V11a4 4 0 0 0-8 0v11z",
  // the start: a five-pointed star
  start: "M12 1l3.2 7.2 7.8.7-5.9 5.2 1.8 7.7L12 17.8l-6.9 4 1.8-7.7L1 8.9l7.8-.7z",
  // Makuta's temple: a stepped pyramid
  temple: "M2 22h20v-4h-3v-4h-3v-4h-2V6h-4v4H8v4H5v4H2z",
  // sound (the turn alerts' chime): a loudspeaker and one wave
  speaker: "M3 9h4l5-4v14l-5-4H3zM14.5 8.2l1.4-1.4a7.5 7.5 0 0 1 0 10.4l-1.4-1.4a5.5 5.5 0 0 0 0-7.6z",
  // notifications: a bell and its clapper
  bell: "M12 2a6 6 0 0 0-6 6v5l-2 3v1h16v-1l-2-3V8a6 6 0 0 0-6-6zM9.5 18.5h5a2.5 2.5 0 0 1-5 0z",
};

export function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `icon icon-${name}`);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", PATHS[name] || "");
  path.setAttribute("fill", "currentColor");
  path.setAttribute("fill-rule", "evenodd");
  svg.append(path);
  return svg;
}
