const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * Escapes user text for Markdown so that it reads as the same text and can
 * carry no inline markup, links or raw HTML, wherever in a line it lands.
 * Kept light for people who read the .md file: only what Markdown (CommonMark
 * and GitHub's extensions) would read as markup is escaped, so "GPA 4.0",
 * "snake_case" and "3 > 2" stay as typed. Text that begins a line or a list
 * item can also start a block: that is escapeLineStart.
 */
export function escapeInline(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.replace(/[\\`*_[\]<|~&#]/g, (character, at: number) => {
    const before = line.charAt(at - 1);
    const after = line.charAt(at + 1);
    switch (character) {
      // A backslash escapes only punctuation, and at a line's end it is a hard break.
      case "\\":
        return after === "" || ASCII_PUNCTUATION.test(after) ? "\\\\" : character;
      // An underscore inside a word neither opens nor closes emphasis.
      case "_":
        return WORD_CHARACTER.test(before) && WORD_CHARACTER.test(after) ? character : "\\_";
      // Only an entity's `&` would be read as a character reference.
      case "&":
        return /^&(?:#\d+|#x[\da-f]+|\w+);/i.test(line.slice(at)) ? "\\&" : character;
      // In a heading, #s ending the text after a space (or all of it) would be dropped as its closing sequence.
      case "#":
        return (at === 0 || before === " ") && /^#+$/.test(line.slice(at)) ? "\\#" : character;
      // Emphasis, code spans, links, raw HTML and autolinks, tables, strikethrough.
      default:
        return `\\${character}`;
    }
  });
}

/**
 * Text that begins a line or a list item: escaped as inline text, and what
 * would start a block there escaped too: a heading, a quote, a list item, an
 * ordered item ("1. ", not "4.0"), a setext underline or thematic break.
 */
export function escapeLineStart(text: string): string {
  return escapeInline(text)
    .replace(/^#{1,6}(?= |$)/, "\\$&")
    .replace(/^>/, "\\>")
    .replace(/^[+-](?= |$)/, "\\$&")
    .replace(/^(?:=+|-+)$/, "\\$&")
    .replace(/^(\d{1,9})([.)])(?= |$)/, "$1\\$2");
}

/** Multi-line free text as Markdown paragraphs, each line escaped as the start of a line. */
export function escapeParagraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) =>
      paragraph
        .split("\n")
        .map((line) => escapeLineStart(line))
        .filter((line) => line !== "")
        .join("  \n"),
    )
    .filter((paragraph) => paragraph !== "")
    .join("\n\n");
}

/** A link destination: an http(s) URL already validated, with the characters that end a destination encoded. */
export function linkDestination(url: string): string {
  return url.replace(/[()<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}
