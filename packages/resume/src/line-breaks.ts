/** A line break as the documents read one: LF, CR LF, a lone CR, Unicode's line and paragraph separators. */
export const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/;

/** The text with each line break (LINE_BREAK) a line feed, so that every document splits lines alike. */
export const withLineFeeds = (text: string): string => text.replace(/\r\n?|[\u2028\u2029]/g, "\n");

/**
 * Control characters other than line breaks and tabs (which the API takes as
 * text) print nothing, and some act: an escape sequence recolours or retitles
 * the terminal a file is printed to, and Word's XML refuses them. They are left
 * out of every document and the Markdown, as are the noncharacters U+FFFE and U+FFFF.
 */
const UNPRINTABLE = /(?![\t\n])[\p{Cc}\uFFFE\uFFFF]/gu;

/** The text without its unprintable characters (UNPRINTABLE). */
const withoutUnprintable = (text: string): string => text.replace(UNPRINTABLE, "");

/** The text as every document and the Markdown write it: its line breaks line feeds, nothing unprintable. */
export const printableText = (text: string): string => withoutUnprintable(withLineFeeds(text));
