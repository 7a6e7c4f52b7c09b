import { present, type OutlineEntry, type ResumeOutline } from "./resume-outline.ts";

/** The longest line of the plain-text resume, in characters (code points). */
const TEXT_LINE_LIMIT = 100;

/**
 * The resume as plain UTF-8 text for pasting into application forms: no
 * markup, section titles in capitals, one blank line between entries, lines
 * wrapped at spaces to at most TEXT_LINE_LIMIT characters (a longer word is cut).
 */
export function renderResumeText(outline: ResumeOutline): string {
  const head = [outline.name, ...present([outline.headline])];
  if (outline.contact.length) head.push(outline.contact.map((item) => item.text).join(" · "));
  const blocks: string[][] = [head.flatMap((line) => wrap(line))];
  for (const section of outline.sections) {
    blocks.push(wrap(section.title.toUpperCase()));
    for (const paragraph of section.paragraphs) blocks.push(wrap(paragraph));
    for (const entry of section.entries) blocks.push(entryLines(entry));
  }
  return `${blocks.map((lines) => lines.join("\n")).join("\n\n")}\n`;
}

function entryLines(entry: OutlineEntry): string[] {
  const details = present([entry.dates, ...entry.details]).join(" · ");
  return [
    ...[entry.heading, ...present([details, entry.text, entry.link?.text])].flatMap((line) => wrap(line)),
    ...entry.bullets.flatMap((bullet) => wrap(`- ${bullet}`, { bullet: true })),
  ];
}

/**
 * One line of text (which may hold the user's own line breaks) as lines of at
 * most TEXT_LINE_LIMIT characters; a bullet's continuation lines are indented
 * under its text. A `bullet`'s own later lines are continuations too, even
 * one that starts with "- " (else `Led X` and `- then Y` read as two bullets).
 */
function wrap(text: string, { bullet = false } = {}): string[] {
  return text.split(/\r?\n/).flatMap((line, index) => {
    const continued = bullet && index > 0;
    const indent = continued || line.startsWith("- ") ? "  " : "";
    const lines: string[] = [];
    let current = "";
    for (const word of line.split(/\s+/).filter(Boolean)) {
      const prefix = lines.length || current || continued ? indent : "";
      const candidate = current ? `${current} ${word}` : `${prefix}${word}`;
      if (length(candidate) <= TEXT_LINE_LIMIT) {
        current = candidate;
        continue;
      }
      if (length(`${indent}${word}`) <= TEXT_LINE_LIMIT) {
        lines.push(current);
        current = `${indent}${word}`;
        continue;
      }
      // A word longer than a line is cut into pieces, the first after what the line holds.
      let rest = Array.from(candidate);
      while (rest.length > TEXT_LINE_LIMIT) {
        lines.push(rest.slice(0, TEXT_LINE_LIMIT).join(""));
        rest = [...Array.from(indent), ...rest.slice(TEXT_LINE_LIMIT)];
      }
      current = rest.join("");
    }
    if (current || !lines.length) lines.push(current);
    return lines;
  });
}

const length = (text: string) => Array.from(text).length;
