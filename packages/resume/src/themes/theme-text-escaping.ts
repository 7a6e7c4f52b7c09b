import type { JsonResume } from "../json-resume/to-json-resume.ts";
import type { ThemeName } from "./theme-names.ts";

type Render = (document: JsonResume) => string | Promise<string>;

/**
 * Themes are written for their author's own resume and trust its text; some
 * write it into the page unescaped, so a name `<b>x</b>` would become bold, or
 * markup that breaks the page. The sanitizer (offline-page.ts) keeps such
 * markup from running or loading, but a person's text must also show as they
 * typed it. What each theme leaves unescaped is escaped here, and only here
 * (read from the themes' sources at the versions package.json pins; the
 * theme tests put `<b>x</b>` into every field and look for it as text):
 *
 * - even: its `html` template tag escapes nothing, so every string goes into
 *   the page as it is (text and attributes alike), except the fields it
 *   renders as Markdown with micromark, which escapes HTML itself. Every other
 *   string is escaped before rendering.
 * - stackoverflow: Svelte escapes every field, but the page around it writes
 *   `basics.name` into `<title>` unescaped. That one place is escaped after
 *   rendering (before, the name would be escaped twice in the page). Its light
 *   Markdown (summaries, highlights, interests) also makes a link of every
 *   http(s) address in the text; those links are taken out after rendering,
 *   their text left (an address typed as text stays text, as in the Markdown).
 */
const ESCAPING: Record<
  ThemeName,
  { before?(document: JsonResume): JsonResume; after?(html: string, document: JsonResume): string }
> = {
  even: {
    before: (document) => escapeStrings(document, "", EVEN_MARKDOWN) as JsonResume,
  },
  stackoverflow: {
    after: (html, document) => {
      const name = String((document.basics as { name?: unknown } | undefined)?.name ?? "");
      return withoutAddressLinks(
        html.replace(`<title>${name}</title>`, () => `<title>${escapeHtml(name)}</title>`),
      );
    },
  },
};

/**
 * stackoverflow's page without the links its Markdown made of addresses in
 * the text (`<a href="X" …>X</a>`, X as it escaped it), their text kept. Its
 * own links (a profile's, a certificate's) write their attributes in another
 * order and are left.
 */
const withoutAddressLinks = (html: string) =>
  html.replace(/<a href="([^"]*)" target="_blank" rel="noopener noreferrer">\1<\/a>/g, "$1");

/** Where `even` renders Markdown: paths with each array index written `*`. */
const EVEN_MARKDOWN = new Set([
  "basics.summary",
  "work.*.summary",
  "work.*.highlights.*",
  "volunteer.*.summary",
  "volunteer.*.highlights.*",
  "education.*.courses.*",
  "projects.*.description",
  "projects.*.highlights.*",
  "awards.*.summary",
  "publications.*.summary",
  "references.*.reference",
]);

/** The theme's page for the document, with all of the person's text shown as text. */
export async function renderWithTextEscaped(name: ThemeName, render: Render, document: JsonResume) {
  const { before, after } = ESCAPING[name];
  const html = await render(before ? before(document) : document);
  return after ? after(html, document) : html;
}

/** Every string in `value` escaped, but those at the paths in `unescaped`. */
function escapeStrings(value: unknown, path: string, unescaped: Set<string>): unknown {
  if (typeof value === "string") return unescaped.has(path) ? value : escapeHtml(value);
  const at = (key: string) => (path === "" ? key : `${path}.${key}`);
  if (Array.isArray(value)) return value.map((item) => escapeStrings(item, at("*"), unescaped));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, escapeStrings(item, at(key), unescaped)]),
    );
  return value;
}

/** Text as HTML text or attribute value. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
