// The How to play page's pictures: each row of the key to the symbols (a cell whose
// data-symbol names its legend entry) gets the mark the game's board draws for it. The board
// view draws them (its `keyMarks`: a function per group of the key, from its own icons and
// classes), so that the page shows what the table shows; a view without them leaves the
// page its words.
import { boardView, pictureBook } from "./common.js";

async function drawKey() {
  const main = document.querySelector("main.rules[data-game]");
  if (!main) return;
  const book = await pictureBook(main.dataset.game);
  const drawings = (await boardView(book)).keyMarks;
  if (!drawings) return;
  const symbols = Object.fromEntries(book.legend.map((s) => [s.id, s]));
  for (const cell of main.querySelectorAll(".key-picture[data-symbol]")) {
    const symbol = symbols[cell.dataset.symbol];
    const draw = symbol && drawings[symbol.group];
    if (draw) cell.replaceChildren(draw(symbol, book));
  }
}

drawKey();
