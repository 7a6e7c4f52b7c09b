/**
 * Escapes user text for Markdown so that it reads as the same text and can
 * neither start structure (headings, lists, quotes, tables, code) nor carry
 * inline markup, links or raw HTML. Kept light for people who read the .md
 * file: only characters that could mean something are escaped.
 */
export function escapeInline(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\`*_[\]<>|~]/g, "\\$&")
    .replace(/&(?=#?\w+;)/g, "\\&")
    .replace(/!(?=\\\[)/g, "\\!")
    .replace(/^([#+=-])/, "\\$1")
    .replace(/^(\d+)([.)])/, "$1\\$2");
}

/** Multi-line free text as Markdown paragraphs, each line escaped like inline text. */
export function escapeParagraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) =>
      paragraph
        .split("\n")
        .map((line) => escapeInline(line))
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
