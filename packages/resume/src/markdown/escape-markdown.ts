import { withLineFeeds } from "../line-breaks.ts";

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
/** What may end an email address's local part and begin its domain, in GFM renderers and wider. */
const EMAIL_LOCAL_PART_END = /[\p{L}\p{N}._+-]/u;
const EMAIL_DOMAIN_START = /[\p{L}\p{N}_-]/u;

/**
 * Escapes user text for Markdown so that it reads as the same text and can
 * carry no inline markup, links or raw HTML, wherever in a line it lands.
 * Kept light for people who read the .md file: only what Markdown (CommonMark
 * and GitHub's extensions) would read as markup is escaped, so "GPA 4.0",
 * "snake_case" and "3 > 2" stay as typed. Text that begins a line or a list
 * item can also start a block: that is escapeLineStart.
 */
export function escapeInline(text: string): string {
  return escapeText(text, { inLink: false });
}

/**
 * The text of a link the resume makes (a profile link's name, the email):
 * escaped as inline text, but addresses in it left as typed, since no
 * autolink is made inside a link.
 */
export function escapeLinkText(text: string): string {
  return escapeText(text, { inLink: true });
}

function escapeText(text: string, { inLink }: { inLink: boolean }): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.replace(/[\\`*_[\]<|~&#:.@]/g, (character, at: number) => {
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
      // An address written as text, which GFM would make a link of.
      case ":":
      case ".":
      case "@":
        return !inLink && recognizedAsAutolink(line, at) ? `\\${character}` : character;
      // Emphasis, code spans, links, raw HTML and autolinks, tables, strikethrough.
      default:
        return `\\${character}`;
    }
  });
}

/**
 * Whether the `:`, `.` or `@` at `at` is where GFM's autolinks (marked's
 * default, GitHub's) recognize an address in text: the `:` of `https://` (any
 * scheme), the `.` of a `www.` that begins a word, the `@` of
 * `ada@example.org`. Escaped, it is not recognized, and the backslash is all
 * a reader of the file sees. One exception: GitHub's own renderer (cmark-gfm)
 * looks for an email address after reading escapes, so it still links one;
 * only an invisible character would stop it, which a copy of the address
 * would carry.
 */
function recognizedAsAutolink(line: string, at: number): boolean {
  switch (line.charAt(at)) {
    case ":":
      return line.startsWith("//", at + 1);
    case ".":
      return /(?:^|[^\p{L}\p{N}])www$/iu.test(line.slice(Math.max(0, at - 4), at));
    default:
      return EMAIL_LOCAL_PART_END.test(line.charAt(at - 1)) && EMAIL_DOMAIN_START.test(line.charAt(at + 1));
  }
}

/**
 * Text that begins a line or a list item: escaped as inline text, and what
 * would start a block there escaped too: a heading, a quote, a list item, an
 * ordered item ("1. ", not "4.0"), a setext underline or thematic break
 * (`---`, and `-- -`: its dashes may have spaces between them).
 */
export function escapeLineStart(text: string): string {
  return escapeInline(text)
    .replace(/^#{1,6}(?= |$)/, "\\$&")
    .replace(/^>/, "\\>")
    .replace(/^[+-](?= |$)/, "\\$&")
    .replace(/^(?:=+|-[- ]*)$/, "\\$&")
    .replace(/^(\d{1,9})([.)])(?= |$)/, "$1\\$2");
}

/**
 * Lines of free text as one Markdown paragraph: each escaped as the start of
 * a line, after a hard break; blank ones left out.
 */
export function escapeLines(text: string): string {
  return withLineFeeds(text)
    .split("\n")
    .map((line) => escapeLineStart(line))
    .filter((line) => line !== "")
    .join("  \n");
}

/**
 * Free text inside a list item, its lines kept: each line after the first
 * follows a hard break, indented so that it stays in the item; blank ones
 * left out. The first line is escaped by `escapeFirst`: as the start of the
 * item (the default), or as text after the item's own words.
 */
export function escapeItemLines(
  text: string,
  escapeFirst: (line: string) => string = escapeLineStart,
): string {
  const [first = "", ...rest] = withLineFeeds(text)
    .split("\n")
    .filter((line) => line.trim() !== "");
  return [escapeFirst(first), ...rest.map((line) => `  ${escapeLineStart(line)}`)].join("  \n");
}

/** Multi-line free text as Markdown paragraphs, each line escaped as the start of a line. */
export function escapeParagraphs(text: string): string {
  return withLineFeeds(text)
    .split(/\n\s*\n/)
    .map((paragraph) => escapeLines(paragraph))
    .filter((paragraph) => paragraph !== "")
    .join("\n\n");
}

/**
 * A link destination: an http(s) or mailto URL already validated, with the
 * characters that end a destination encoded, and the backslash, which
 * Markdown reads as an escape there: `(https://example.com/a\)` ended no
 * link and `https://ok.io/\*x` linked to `https://ok.io/*x`. As `%5C` it is
 * the character as stored.
 */
export function linkDestination(url: string): string {
  return url.replace(/[()<>\s\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}
