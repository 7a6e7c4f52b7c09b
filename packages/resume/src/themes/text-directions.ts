import { readsRightToLeft, RIGHT_TO_LEFT } from "../documents/bidi-layout.ts";

/** What a theme's CSS does that its tags do not say (theme-documents.ts). */
export interface ThemeTextLayout {
  /** Classes of the elements whose blocks the theme shows inline, as the parts of one line. */
  lineClasses?: readonly string[];
  /** Its list items' bullets stay on the left, where its layout has room for them. */
  bulletsOnTheLeft?: boolean;
  /**
   * The left padding its lists keep for their bullets: an item that reads
   * right to left is moved by as much, so that its bullet, at its right, stays
   * within the column instead of in the page's margin.
   */
  listIndent?: string;
}

/**
 * A themed page's text blocks with `dir="auto"`: a browser then sets each
 * block's direction from its first letter of a strong direction, the rule the
 * PDF and the Word file follow for each paragraph (readsRightToLeft). Neither
 * theme sets a direction, so a Hebrew or Arabic line was laid out left to
 * right: "בניתי מערכת ב-React Native (2020) עם 3 אנשים" read in the wrong
 * order, its brackets and number on the wrong side. A left-to-right block
 * resolves to the direction it had, so such a page is laid out as before;
 * only the blocks that start with a right-to-left letter read (and, where
 * the theme does not align its text left, align) from the right.
 *
 * A text block is an element of TEXT_BLOCKS holding text and no other block
 * that holds text: a paragraph, a heading, a list item, a `<div>` of a line
 * (`<div class="company">`). Each gets its own direction, so one Hebrew
 * bullet among English ones reads right to left alone. A list item whose
 * text starts in a paragraph of its own (`<li><p>…</p></li>`) takes the
 * direction itself, so that its bullet stands on the side its text starts
 * (as the Word file puts it), and the paragraph takes the item's; its later
 * paragraphs each have their own. Text that stands among blocks in an
 * inline element of its own (stackoverflow's `<span class="location">`)
 * gets it too: it is then ordered by its own first letter, isolated from
 * the line around it. Elements that only arrange blocks (sections, headers,
 * lists, a flex box of lines) get none: their layout stays the theme's.
 *
 * Which elements are blocks is read from their tags; what a theme's CSS
 * changes is said by its `layout`: the elements that hold one line whose
 * parts are blocks shown inline (stackoverflow's `<div class="header-left">`:
 * a job's title and its company, "at " between them) are the text blocks,
 * their parts read in the order of the line's first letter, not each
 * isolated; and where a bullet at the right would be cut off
 * (stackoverflow's entries hide what overflows them, and its list items
 * have room for a bullet on the left only), the items keep the page's
 * direction and the paragraphs in them take their own.
 */
export function withTextDirections(page: string, layout: ThemeTextLayout = {}): string {
  const root = parsePage(page);
  const isLine = (element: Element) => {
    const classes = /\sclass="([^"]*)"/.exec(element.attributes)?.[1]?.split(/\s+/) ?? [];
    return classes.some((name) => layout.lineClasses?.includes(name)) && hasText(element);
  };
  const marks: { at: number; direction: "auto" | "rtl" }[] = [];
  /** The text of the last block marked: a line of dates alone follows its direction. */
  let textBefore = "";
  /** Whether a list item reads right to left: only then does its bullet need room at the right. */
  let rightToLeftItem = false;
  const mark = (element: Element) => {
    if (/\sdir\s*=/i.test(element.attributes)) return;
    const text = textOf(element).trim();
    const follows = isDatesLine(element, text) && readsRightToLeft(textBefore);
    marks.push({ at: element.nameEnd, direction: follows ? "rtl" : "auto" });
    if (follows) return;
    textBefore = text;
    if (LIST_ITEMS.has(element.name) && readsRightToLeft(text)) rightToLeftItem = true;
  };
  const visit = (element: Element) => {
    if (NOT_SHOWN.has(element.name)) return;
    if (isLine(element)) return mark(element);
    if (isTextBlock(element)) {
      const item = element.parent;
      const itemTakesIt =
        !layout.bulletsOnTheLeft && item && LIST_ITEMS.has(item.name) && firstTextHolder(item) === element;
      return mark(itemTakesIt ? item : element);
    }
    if (isInlineRun(element)) return mark(element);
    for (const child of element.children) if (typeof child !== "string") visit(child);
  };
  visit(root);
  // Marks come in the page's order: the page is cut at each and joined once.
  const parts: string[] = [];
  let from = 0;
  for (const { at, direction } of marks) {
    parts.push(page.slice(from, at), ` dir="${direction}"`);
    from = at;
  }
  parts.push(page.slice(from));
  const marked = parts.join("");
  // Only a page that has such an item gets the rule: a left-to-right page stays as it was, byte for byte.
  if (!layout.listIndent || layout.bulletsOnTheLeft || !rightToLeftItem) return marked;
  const end = marked.lastIndexOf("</body>");
  const shift = `<style>li:dir(rtl) { margin-left: -${layout.listIndent}; margin-right: ${layout.listIndent}; }</style>`;
  return end === -1 ? marked + shift : marked.slice(0, end) + shift + marked.slice(end);
}

/**
 * A line of dates alone (`<time>`s, and the theme's dashes and words between
 * them, "Present"): its month names would make it read left to right beside
 * a right-to-left entry, so it takes the direction of the text before it.
 */
const isDatesLine = (element: Element, text: string): boolean =>
  element.children.some((child) => typeof child !== "string" && child.name === "time") &&
  !RIGHT_TO_LEFT.test(text);

const textOf = (node: Element | string): string =>
  typeof node === "string" ? node : node.children.map(textOf).join("");

/** The elements that hold a line or a paragraph of text in a page. */
const TEXT_BLOCKS = new Set([
  ...["p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dt", "dd", "div", "blockquote"],
  ...["td", "th", "caption", "figcaption", "address", "pre", "summary", "legend"],
]);

/** The blocks that only hold other blocks in the themes: their text is in the blocks inside them. */
const CONTAINERS = new Set([
  ...["html", "body", "main", "section", "article", "header", "footer", "nav", "aside"],
  ...["ul", "ol", "dl", "table", "thead", "tbody", "tfoot", "tr", "figure", "details", "fieldset"],
]);

/** Elements whose text is not on the page. */
const NOT_SHOWN = new Set(["head", "title", "style", "script", "template"]);

/** Items whose marker stands on the side their text starts. */
const LIST_ITEMS = new Set(["li", "dt", "dd"]);

/** Elements written without a closing tag. */
const VOID = new Set(["br", "hr", "img", "meta", "wbr", "input", "area", "base", "col", "link", "source"]);

interface Element {
  name: string;
  /** The open tag's attributes, as written. */
  attributes: string;
  /** Where in the page the open tag's name ends: where an attribute is added. */
  nameEnd: number;
  parent: Element | null;
  children: (Element | string)[];
}

const hasText = (node: Element | string): boolean =>
  typeof node === "string" ? node.trim() !== "" : node.children.some(hasText);

const isBlock = (node: Element | string) =>
  typeof node !== "string" && (TEXT_BLOCKS.has(node.name) || CONTAINERS.has(node.name));

const holdsTextBlock = (node: Element | string): boolean =>
  typeof node !== "string" && ((isBlock(node) && hasText(node)) || node.children.some(holdsTextBlock));

/** A block whose text is its own: it holds text, and no block inside it does. */
const isTextBlock = (element: Element) =>
  TEXT_BLOCKS.has(element.name) && hasText(element) && !element.children.some(holdsTextBlock);

/** An inline element whose text is its own (it holds no block that holds text), not within a text block. */
const isInlineRun = (element: Element) =>
  !isBlock(element) && hasText(element) && !element.children.some(holdsTextBlock);

/** The child of `element` that holds its first text. */
function firstTextHolder(element: Element): Element | string | undefined {
  return element.children.find(hasText);
}

/**
 * The elements of a page as offlinePage writes it: every tag written by
 * sanitize-html (attribute values quoted, `<` and `>` in them escaped, no
 * comments), text escaped, one `<style>` whose CSS cannot close it. A `<`
 * outside a tag is then only ever the start of one.
 */
function parsePage(page: string): Element {
  const root: Element = { name: "", attributes: "", nameEnd: 0, parent: null, children: [] };
  let open = root;
  const tokens =
    /<style\b[^>]*>[\s\S]*?<\/style\s*>|<![^>]*>|<\/([a-zA-Z][\w:-]*)\s*>|<([a-zA-Z][\w:-]*)([^>]*)>|[^<]+|</g;
  for (const token of page.matchAll(tokens)) {
    const [text, closed, opened, attributes] = token;
    if (opened !== undefined) {
      const name = opened.toLowerCase();
      const element: Element = {
        name,
        attributes: attributes!,
        nameEnd: token.index + 1 + opened.length,
        parent: open,
        children: [],
      };
      open.children.push(element);
      if (!VOID.has(name) && !attributes!.endsWith("/")) open = element;
    } else if (closed !== undefined) {
      const name = closed.toLowerCase();
      let element: Element | null = open;
      while (element && element.name !== name) element = element.parent;
      // A closing tag of nothing open is left alone, as a browser does.
      if (element?.parent) open = element.parent;
    } else if (!text.startsWith("<")) {
      open.children.push(text);
    }
  }
  return root;
}
