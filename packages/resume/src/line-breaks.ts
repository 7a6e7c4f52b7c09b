/** A line break as the documents read one: LF, CR LF, a lone CR, Unicode's line and paragraph separators. */
export const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/;

/** The text with each line break (LINE_BREAK) a line feed, so that every document splits lines alike. */
export const withLineFeeds = (text: string): string => text.replace(/\r\n?|[\u2028\u2029]/g, "\n");
