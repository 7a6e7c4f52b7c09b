import sanitizeHtml from "sanitize-html";
import { offlineDeclarations, offlineStylesheet } from "./offline-css.ts";
import { withoutIndentation } from "./without-indentation.ts";

/**
 * A theme's HTML page made self-contained and inert: nothing in it loads
 * from anywhere and nothing runs. The page is public (share links, saved
 * copies, frames without our headers), so this holds without the
 * Content-Security-Policy it is also sent with.
 *
 * sanitize-html parses the page and writes it out again with only the
 * elements and attributes below, text and attribute values escaped: no
 * script, frame, embed, form, `<link>`, `<base>` or `http-equiv`, no event
 * attribute, links only to http(s), mailto and tel, images only from `data:`.
 * CSS is made offline by offline-css.ts: style attributes where they are,
 * and every `<style>` element's CSS gathered into one `<style>` at the end of
 * the head, which this function writes itself (a `<style>` inside `<svg>` is
 * parsed as markup by browsers, not as CSS, so none may stay where it was).
 */
export function offlinePage(html: string): string {
  const stylesheets: string[] = [];
  let preformatted = 0;
  const page = sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, ...DOCUMENT_TAGS, ...ICON_TAGS, "img"],
    allowedAttributes: ALLOWED_ATTRIBUTES,
    allowedSchemes: ["http", "https", "mailto", "tel"],
    allowedSchemesByTag: { img: ["data"] },
    allowProtocolRelative: false,
    // Our own CSS rules (offline-css.ts) apply, not sanitize-html's property allowlist.
    parseStyleAttributes: false,
    // `<style>` is allowed only to be taken out whole below; its text is never written where it was.
    allowVulnerableTags: true,
    transformTags: { "*": (tagName, attribs) => ({ tagName, attribs: offlineAttributes(tagName, attribs) }) },
    // A theme's indentation goes, except in `<pre>`, where white space is shown as it is (the
    // installed themes' CSS shows it as it is nowhere else: themed-page-fields.test.ts).
    onOpenTag: (tagName) => {
      if (tagName === "pre") preformatted += 1;
    },
    onCloseTag: (tagName) => {
      if (tagName === "pre") preformatted -= 1;
    },
    textFilter: (text) => (preformatted > 0 ? text : withoutIndentation(text)),
    exclusiveFilter: (frame) => {
      if (frame.tag === "style") {
        stylesheets.push(offlineStylesheet(frame.text));
        return true;
      }
      // sanitize-html lets relative URLs through; an image may only be `data:`.
      if (frame.tag === "img") return !/^data:image\//i.test(frame.attribs.src?.trim() ?? "");
      // A meta is kept for the charset or a named value (description, viewport), nothing else.
      if (frame.tag === "meta")
        return frame.attribs.charset === undefined && frame.attribs.name === undefined;
      return false;
    },
  });
  const css = stylesheets.filter((stylesheet) => stylesheet !== "").join("\n");
  const style = css === "" ? "" : `<style>\n${css}\n</style>`;
  // Escaped text cannot hold "</head>": the first one ends the head, unless an <svg> opened
  // before it (a <style> there would not be CSS), and then the style goes first.
  const headEnd = page.indexOf("</head>");
  const inHead = headEnd !== -1 && !page.slice(0, headEnd).includes("<svg");
  const styled = inHead ? page.slice(0, headEnd) + style + page.slice(headEnd) : style + page;
  // sanitize-html drops the doctype; without it browsers render in quirks mode.
  return `<!doctype html>\n${styled}`;
}

/** The page's own structure (sanitize-html's defaults are for fragments). */
const DOCUMENT_TAGS = ["html", "head", "body", "title", "meta", "style"];

/** Inline SVG as icon sets draw it (`even` shows one beside each contact line): shapes, no references. */
const ICON_TAGS = ["svg", "g", "path", "circle", "ellipse", "line", "polyline", "polygon", "rect"];
const SHAPE_ATTRIBUTES = [
  "fill",
  "stroke",
  "stroke-width",
  "stroke-linecap",
  "stroke-linejoin",
  "opacity",
  "transform",
];

const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  "*": ["class", "id", "lang", "dir", "title", "role", "aria-*", "style"],
  a: ["href", "target", "rel"],
  img: ["src", "alt", "width", "height"],
  meta: ["charset", "name", "content"],
  time: ["datetime"],
  ol: ["start", "reversed", "type"],
  li: ["value"],
  td: ["colspan", "rowspan", "headers"],
  th: ["colspan", "rowspan", "headers", "scope"],
  // The parser lower-cases attribute names; browsers restore `viewBox` on SVG elements.
  svg: ["xmlns", "width", "height", "viewbox", ...SHAPE_ATTRIBUTES],
  g: SHAPE_ATTRIBUTES,
  path: ["d", ...SHAPE_ATTRIBUTES],
  circle: ["cx", "cy", "r", ...SHAPE_ATTRIBUTES],
  ellipse: ["cx", "cy", "rx", "ry", ...SHAPE_ATTRIBUTES],
  line: ["x1", "y1", "x2", "y2", ...SHAPE_ATTRIBUTES],
  polyline: ["points", ...SHAPE_ATTRIBUTES],
  polygon: ["points", ...SHAPE_ATTRIBUTES],
  rect: ["x", "y", "width", "height", "rx", "ry", ...SHAPE_ATTRIBUTES],
};

/**
 * Attributes that are CSS made offline: `style`, and SVG paints (`fill`,
 * `stroke`), kept only as a color or `none`: without quotes, escapes or
 * colons no URL can be spelled, and `url(` is refused outright. Links are
 * absolute or to a fragment of the page: a relative one would lead
 * elsewhere on whatever host serves it.
 */
function offlineAttributes(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const kept = { ...attribs };
  if (tagName === "a" && kept.href !== undefined && !/^\s*(https?:|mailto:|tel:|#)/i.test(kept.href))
    delete kept.href;
  // An empty style attribute is dropped by sanitize-html.
  if (kept.style !== undefined) kept.style = offlineDeclarations(kept.style);
  // A page people zoom: stackoverflow's `user-scalable=no, maximum-scale=1` forbade it on phones.
  if (tagName === "meta" && kept.name?.toLowerCase() === "viewport" && kept.content !== undefined)
    kept.content = kept.content
      .split(/[,;]/)
      .map((part) => part.trim())
      .filter((part) => !/^(user-scalable|maximum-scale)\s*=/i.test(part))
      .join(", ");
  for (const paint of ["fill", "stroke"]) {
    const value = kept[paint];
    if (value !== undefined && !/^(?![\s\S]*url\()[\w\s#(),.%/+-]*$/i.test(value)) delete kept[paint];
  }
  return kept;
}
