import { withLineFeeds } from "../line-breaks.ts";
import { escapeParagraphs } from "../markdown/escape-markdown.ts";
import type { JsonResume } from "../json-resume/to-json-resume.ts";
import type { ThemeName } from "./theme-names.ts";

type Render = (document: JsonResume) => string | Promise<string>;

/**
 * Themes are written for their author's own resume and trust its text; some
 * write it into the page unescaped, so a name `<b>x</b>` would become bold, or
 * markup that breaks the page, and some read Markdown in it, so a
 * responsibility `Wrote __init__.py` would show "init" in bold. The sanitizer
 * (offline-page.ts) keeps markup from running or loading, but a person's text
 * must also show as they typed it, every character of it, and the lines of
 * free text (summaries, bullets, honors, activities, a hobby's description) as
 * lines, as the other documents keep them. What each theme would read as
 * markup is escaped here, and only here (read from the themes' sources at the
 * versions package.json pins; the theme tests put `<b>x</b>` into every field
 * and look for it as text, and Markdown and lines into the free text):
 *
 * - even: its `html` template tag escapes nothing, so every string goes into
 *   the page as it is (text and attributes alike): each is escaped as HTML
 *   before rendering. The fields it renders as Markdown (EVEN_MARKDOWN, with
 *   micromark 2 and no options: CommonMark, raw HTML escaped) are escaped as
 *   Markdown instead, as the Markdown export escapes them (escape-markdown.ts):
 *   micromark makes of them the text as typed, each line after a `<br />`,
 *   each paragraph a `<p>`. A hobby's description, which it shows as a tag,
 *   gets a `<br>` before each line after the first.
 * - stackoverflow: Svelte escapes every field, but the page around it writes
 *   `basics.name` into `<title>` unescaped. That one place is escaped after
 *   rendering (before, the name would be escaped twice in the page). Its light
 *   Markdown (FormattedText: summaries, highlights, interests' summaries)
 *   makes bold and italics of asterisks, links of `[x](https://…)` and of
 *   every address, and paragraphs of the text but no line breaks. Those
 *   fields are given to it as placeholders, each of which it writes as
 *   `<p style="margin:0">placeholder</p>`, and each such paragraph is then
 *   replaced by the text's own: a `<p style="margin:0">` per paragraph, as it
 *   writes them, holding the escaped text with a `<br>` between its lines.
 */
const ESCAPING: Record<ThemeName, (document: JsonResume) => Escaping> = {
  even: (document) => ({
    document: mapStrings(document, "", (text, path) =>
      EVEN_MARKDOWN.has(path)
        ? escapeParagraphs(withLineFeeds(text))
        : path === EVEN_HOBBY_DESCRIPTION
          ? escapeHtmlLines(text)
          : escapeHtml(text),
    ) as JsonResume,
    page: (html) => html,
  }),
  stackoverflow: (document) => {
    const name = String((document.basics as { name?: unknown } | undefined)?.name ?? "");
    // Letters and digits alone, which neither its escaping nor its Markdown changes.
    const nonce = crypto.randomUUID().replaceAll("-", "");
    const texts: string[] = [];
    const placeholders = mapStrings(document, "", (text, path) => {
      // An empty text is not shown at all, as before.
      if (!STACKOVERFLOW_FORMATTED.has(path) || text === "") return text;
      texts.push(text);
      return `${nonce}${texts.length - 1}`;
    }) as JsonResume;
    return {
      document: placeholders,
      page: (html) => {
        const page = html
          .replace(`<title>${name}</title>`, () => `<title>${escapeHtml(name)}</title>`)
          .replace(new RegExp(`<p style="margin:0">${nonce}(\\d+)</p>`, "g"), (_, index: string) =>
            stackoverflowParagraphs(texts[Number(index)]!),
          );
        // A text stackoverflow wrote some other way would show its placeholder: a failed render, not a wrong page.
        if (page.includes(nonce)) throw new Error("jsonresume-theme-stackoverflow wrote a text unexpectedly");
        return page;
      },
    };
  },
};

/** A theme's document with its text escaped, and what is left to do on the theme's page. */
interface Escaping {
  document: JsonResume;
  page(html: string): string;
}

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

/** Where `even` is given a hobby's description (theme-documents.ts): the one keyword of an interest. */
const EVEN_HOBBY_DESCRIPTION = "interests.*.keywords.*";

/** Where `stackoverflow` renders its Markdown (FormattedText): paths with each array index written `*`. */
const STACKOVERFLOW_FORMATTED = new Set([
  "basics.summary",
  "work.*.summary",
  "work.*.highlights.*",
  "volunteer.*.summary",
  "volunteer.*.highlights.*",
  "education.*.summary",
  "projects.*.description",
  "projects.*.highlights.*",
  "awards.*.summary",
  "publications.*.summary",
  "interests.*.summary",
]);

/** The theme's page for the document, with all of the person's text shown as text. */
export async function renderWithTextEscaped(name: ThemeName, render: Render, document: JsonResume) {
  const { document: escaped, page } = ESCAPING[name](document);
  return page(await render(escaped));
}

/** Every string in `value` as `map` makes it, given the string and its path. */
function mapStrings(value: unknown, path: string, map: (text: string, path: string) => string): unknown {
  if (typeof value === "string") return map(value, path);
  const at = (key: string) => (path === "" ? key : `${path}.${key}`);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, at("*"), map));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, mapStrings(item, at(key), map)]),
    );
  return value;
}

/**
 * Free text as stackoverflow writes its paragraphs (`<p style="margin:0">`),
 * the person's own lines kept: a blank line starts a paragraph, set a line
 * below the one before (the theme's margin of 0 ran them together), and the
 * lines of one are a `<br>` apart.
 */
function stackoverflowParagraphs(text: string): string {
  const paragraphs = withLineFeeds(text)
    .split(/\n\s*\n/)
    .map(escapeHtmlLines)
    .filter(Boolean);
  return (paragraphs.length > 0 ? paragraphs : [""])
    .map((p, i) => `<p style="margin:${i === 0 ? "0" : "1em 0 0"}">${p}</p>`)
    .join("\n");
}

/** Free text as HTML text, its lines kept: each escaped, those after the first after a `<br>`; blank ones left out. */
export function escapeHtmlLines(text: string): string {
  return withLineFeeds(text)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(escapeHtml)
    .join("<br>");
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
