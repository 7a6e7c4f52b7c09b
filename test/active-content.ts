import { parse, type DefaultTreeAdapterTypes } from "parse5";

type Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.Document;

/** Elements that run script, load something, embed another page or submit one. */
const ACTIVE_ELEMENTS = new Set([
  "script",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "link",
  "base",
  "form",
  "portal",
  "video",
  "audio",
  "source",
  "track",
  // SVG
  "image",
  "use",
  "feimage",
  "animate",
  "animatemotion",
  "animatetransform",
  "set",
  "foreignobject",
]);

/** Attributes that load or submit to a URL whatever element carries them. */
const LOADING_ATTRIBUTES = new Set([
  "srcset",
  "action",
  "formaction",
  "poster",
  "background",
  "ping",
  "data",
]);

/**
 * Everything in an HTML page that could run script or load something, read
 * as a browser reads the page (parse5 follows the HTML standard's parser),
 * independently of the sanitizer. Empty for a page that is inert.
 */
export function activeContent(html: string): string[] {
  const found: string[] = [];
  const visit = (node: Node) => {
    if ("tagName" in node) {
      const text = node.childNodes.map((child) => ("value" in child ? child.value : "")).join("");
      found.push(...activeInElement(node.tagName, node.attrs, text));
      if (node.tagName === "template") visit((node as DefaultTreeAdapterTypes.Template).content as never);
    }
    if ("childNodes" in node) node.childNodes.forEach(visit);
  };
  visit(parse(html));
  return found;
}

/**
 * What in one element could run script or load something: the element
 * itself (script, frames, embeds, forms, SVG references), an event
 * attribute, a link that is not http(s), mailto, tel or a fragment, an image
 * that is not `data:`, `http-equiv`, CSS that loads (in `style`, SVG paints
 * or, for `<style>`, its `text`).
 */
export function activeInElement(
  tagName: string,
  attributes: { name: string; value: string }[],
  text = "",
): string[] {
  const tag = tagName.toLowerCase();
  const found: string[] = [];
  const describe = (what: string) => found.push(`<${tag}> ${what}`.slice(0, 200));
  if (ACTIVE_ELEMENTS.has(tag)) describe("element");
  for (const { name, value } of attributes) {
    const attribute = name.toLowerCase();
    const url = value.replace(/[\p{Cc}\s]/gu, "");
    const loads =
      attribute.startsWith("on") ||
      LOADING_ATTRIBUTES.has(attribute) ||
      attribute === "http-equiv" ||
      (attribute === "src" && !/^data:image\//i.test(url)) ||
      (/(^|:)href$/.test(attribute) && !/^(https?:|mailto:|tel:|#)/i.test(url)) ||
      (["style", "fill", "stroke"].includes(attribute) && cssLoads(value));
    if (loads) describe(`${name}="${value}"`);
  }
  if (tag === "style" && cssLoads(text)) describe(text);
  return found;
}

/**
 * Whether CSS would load something: after its escapes are decoded (`u\72l(`
 * is `url(`), any `url(` not of `data:`, a loading function or `@import`.
 * Strings and comments are searched too, so a harmless one can only make
 * this stricter, never hide a load.
 */
export function cssLoads(css: string): boolean {
  const decoded = css
    .replace(/\\([0-9a-f]{1,6})[ \t\n\r\f]?/gi, (_, hex: string) => {
      const code = parseInt(hex, 16);
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
        ? "\ufffd"
        : String.fromCodePoint(code);
    })
    .replace(/\\([^\n])/g, "$1");
  return (
    /(?<![\w-])url\(\s*(?!["']?\s*data:)/i.test(decoded) ||
    /(?<![\w-])(-[a-z]+-)?(image-set|image|src|cross-fade|element|expression|paint)\(/i.test(decoded) ||
    /@import/i.test(decoded)
  );
}
