import { present, type OutlineEntry, type ResumeOutline } from "./resume-outline.ts";
import { linesOfWholeItems } from "./whole-item-lines.ts";

/**
 * The longest line of the plain-text resume, in characters as a reader counts
 * them (grapheme clusters: a letter with its marks, an emoji sequence).
 */
const TEXT_LINE_LIMIT = 100;

/**
 * The resume as plain UTF-8 text for pasting into application forms: no
 * markup, section titles in capitals, one blank line between entries, lines
 * wrapped at spaces to at most TEXT_LINE_LIMIT characters (a longer word is cut).
 */
export function renderResumeText(outline: ResumeOutline): string {
  const head = [outline.name, ...present([outline.headline])].flatMap((line) => wrap(line));
  if (outline.contact.length) head.push(...contactLines(outline.contact.map((item) => item.text)));
  const blocks: string[][] = [head];
  for (const section of outline.sections) {
    blocks.push(wrap(section.title.toUpperCase()));
    for (const paragraph of section.paragraphs) blocks.push(wrap(paragraph));
    for (const entry of section.entries) blocks.push(entryLines(entry));
  }
  return `${blocks.map((lines) => lines.join("\n")).join("\n\n")}\n`;
}

/** The contact line's parts, " · " between them, broken between parts only (linesOfWholeItems). */
function contactLines(parts: string[]): string[] {
  return linesOfWholeItems(parts, length, length(" · "), TEXT_LINE_LIMIT)
    .map((line) => line.join(" · "))
    .flatMap((line) => wrap(line));
}

function entryLines(entry: OutlineEntry): string[] {
  const details = present([entry.dates, ...entry.details]).join(" · ");
  return [
    ...[entry.heading, ...present([details, entry.text, entry.link?.text])].flatMap((line) => wrap(line)),
    ...entry.bullets.flatMap((bullet) => wrap(`- ${bullet}`, { bullet: true })),
  ];
}

/**
 * Where a line may break: a run of spaces, tabs, ideographic spaces and the
 * other spaces of Unicode but those that forbid a break (no-break U+00A0,
 * figure U+2007, narrow no-break U+202F), which join their words into one.
 */
const BREAKABLE_SPACE = /((?:(?![\u00A0\u2007\u202F])[\t\p{Zs}])+)/u;

/**
 * One line of text (which may hold the user's own line breaks) as lines of at
 * most TEXT_LINE_LIMIT characters; a bullet's continuation lines are indented
 * under its text. A `bullet`'s own later lines are continuations too, even
 * one that starts with "- " (else `Led X` and `- then Y` read as two bullets).
 * The spaces between words stay as typed (two of them, an ideographic one)
 * but where a line breaks; a tab is one space, as its width is unknown.
 */
function wrap(text: string, { bullet = false } = {}): string[] {
  return text.split(/\r?\n/).flatMap((line, index) => {
    const continued = bullet && index > 0;
    const indent = continued || line.startsWith("- ") ? "  " : "";
    const lines: string[] = [];
    // The line so far and its length, counted as its words come (a line counted again for each word
    // was a segmentation of the whole line per word).
    let current = "";
    let currentLength = 0;
    for (const { space, word } of wordsOf(line)) {
      const wordLength = length(word);
      const prefix = lines.length || current || continued ? indent : "";
      let start = current ? `${current}${space}` : prefix;
      let startLength = current ? currentLength + length(space) : prefix.length;
      if (startLength + wordLength <= TEXT_LINE_LIMIT) {
        current = `${start}${word}`;
        currentLength = startLength + wordLength;
        continue;
      }
      if (indent.length + wordLength <= TEXT_LINE_LIMIT) {
        lines.push(current);
        current = `${indent}${word}`;
        currentLength = indent.length + wordLength;
        continue;
      }
      // A word longer than a line is cut between characters, never inside one (a Thai
      // consonant and its vowel sign, 👩‍💻): the first piece after what the line holds,
      // when a character of it fits there.
      if (current && startLength >= TEXT_LINE_LIMIT) {
        lines.push(current);
        start = indent;
        startLength = indent.length;
      }
      let rest = graphemes(word);
      while (startLength + rest.length > TEXT_LINE_LIMIT) {
        const taken = TEXT_LINE_LIMIT - startLength;
        lines.push(`${start}${rest.slice(0, taken).join("")}`);
        rest = rest.slice(taken);
        start = indent;
        startLength = indent.length;
      }
      current = `${start}${rest.join("")}`;
      currentLength = startLength + rest.length;
    }
    if (current || !lines.length) lines.push(current);
    return lines;
  });
}

/** The words of a line, each with the spaces before it (tabs as spaces); none at its ends. */
function wordsOf(line: string): { space: string; word: string }[] {
  const parts = line.split(BREAKABLE_SPACE);
  const words: { space: string; word: string }[] = [];
  // Words at even indexes, the spaces between them at odd ones; an empty word is a line's end.
  for (let i = 0; i < parts.length; i += 2)
    if (parts[i] !== "") words.push({ space: (parts[i - 1] ?? "").replaceAll("\t", " "), word: parts[i]! });
  return words;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
// Its first use loads ICU's rules: done at load, so that a document worker's first job does not pay for it.
Array.from(segmenter.segment("a\u0301"));

/**
 * How much text one segment() call is given. Node 20's V8 copies the whole
 * input into every segment it yields, so one call over a 5,000-character word
 * made 50 MB of copies; windows keep that to their own length.
 */
const SEGMENTED_WINDOW = 256;

/** Text of which each code unit is a character of its own: Latin letters without combining marks, and such. */
const ONE_UNIT_CHARACTERS = /^[\u0020-\u02ff]*$/;

/** The characters of `text` as a reader counts them. */
function graphemes(text: string): string[] {
  if (ONE_UNIT_CHARACTERS.test(text)) return text.split("");
  const characters: string[] = [];
  for (let from = 0; from < text.length;) {
    const window = text.slice(from, from + SEGMENTED_WINDOW);
    const segments = Array.from(segmenter.segment(window), ({ segment }) => segment);
    // The window's last character may go on past its end: it is read again at the next one's start,
    // unless it fills the whole window (a cluster that long is cut there).
    const last = from + window.length < text.length && segments.length > 1 ? segments.pop()! : "";
    characters.push(...segments);
    from += window.length - last.length;
  }
  return characters;
}

const length = (text: string) => (ONE_UNIT_CHARACTERS.test(text) ? text.length : graphemes(text).length);
