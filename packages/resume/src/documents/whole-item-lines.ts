/**
 * `items` in lines that each fit `room`, `gap` between two items of a line,
 * broken between items only (one wider than a line alone is a line of its
 * own): the contact line of every format, whose parts (an address, a link's
 * label and its address) must never be cut inside. An address broken at its
 * own hyphen reads as another address to a program that joins the halves, as
 * pdftotext does, and Word breaks a line at a hyphen.
 */
export function linesOfWholeItems<T>(
  items: readonly T[],
  widthOf: (item: T) => number,
  gap: number,
  room: number,
): T[][] {
  const lines: T[][] = [];
  let used = 0;
  for (const item of items) {
    const itemWidth = widthOf(item);
    const line = lines.at(-1);
    if (line && used + gap + itemWidth <= room) {
      line.push(item);
      used += gap + itemWidth;
    } else {
      lines.push([item]);
      used = itemWidth;
    }
  }
  return lines;
}
