/** White space with a line break in it (HTML's and CSS's white space: space, tab, line feed, form feed, carriage return). */
const LINE_BREAKING_SPACE = /[ \t\f\r]*\n[ \t\n\f\r]*/g;

/**
 * Text with each run of white space that holds a line break written as that
 * one line break. Themes indent their markup and CSS, and the indentation was
 * over half of a page's bytes; HTML text outside `<pre>` and CSS between its
 * parts read such a run as they read one line break, so the page looks the same.
 */
export function withoutIndentation(text: string): string {
  return text.replace(LINE_BREAKING_SPACE, "\n");
}
