import { tokenize, type CSSToken } from "@csstools/css-tokenizer";
import postcss, { type ChildNode, type Container } from "postcss";
import { withoutIndentation } from "./without-indentation.ts";

/**
 * CSS that loads nothing: a theme's stylesheets and style attributes keep
 * every rule and declaration except those that would fetch something, which
 * go. Whether a piece of CSS fetches is decided on its tokens, read by a
 * tokenizer that follows CSS Syntax Level 3 as browsers do: escapes are
 * decoded (`u\72l(` is `url(`), comments and strings are told apart
 * (`"/*" url(x) "*\/"` loads x), so a spelling cannot hide a URL. postcss only
 * finds the declarations and rules to drop; whatever it makes of odd CSS,
 * the text that comes out is tokenized again and refused whole if anything in
 * it would still load.
 */

/** At-rules a theme may keep; `@import` loads, the others are not needed. */
const KEPT_AT_RULES = new Set([
  "media",
  "supports",
  "keyframes",
  "font-face",
  "page",
  "layer",
  "container",
  "property",
  "counter-style",
]);

/**
 * Functions that fetch their argument (a URL or a string that is one) or run
 * script (`expression()`, old Internet Explorer). `url()` is judged on its
 * own: it may keep a `data:` URL.
 */
const LOADING_FUNCTIONS = new Set([
  "src",
  "image",
  "image-set",
  "cross-fade",
  "element",
  "expression",
  "paint",
]);

/** A whole `<style>` element's CSS made offline; "" when it cannot be read. */
export function offlineStylesheet(css: string): string {
  let root;
  try {
    root = postcss.parse(css);
  } catch {
    return "";
  }
  keepOffline(root);
  // The white space between rules and declarations, and inside selectors without a string or
  // an escape (where a line break could be part of a name); values keep theirs.
  root.walk((node) => {
    const raws = node.raws as { before?: string; after?: string };
    if (raws.before) raws.before = withoutIndentation(raws.before);
    if (raws.after) raws.after = withoutIndentation(raws.after);
    if (node.type === "rule" && !/["'\\]/.test(node.selector))
      node.selector = withoutIndentation(node.selector);
  });
  return finished(root.toString().trim());
}

/** A `style` attribute's declarations made offline; "" when none is left or they cannot be read. */
export function offlineDeclarations(style: string): string {
  let root;
  try {
    root = postcss.parse(style);
  } catch {
    return "";
  }
  root.each((node) => {
    if (node.type !== "decl" || loads(node.toString())) node.remove();
  });
  return finished(root.toString().trim());
}

function keepOffline(container: Container): void {
  container.each((node: ChildNode) => {
    switch (node.type) {
      case "comment":
        node.remove();
        break;
      case "decl":
        if (loads(node.toString())) node.remove();
        break;
      case "atrule":
        if (!KEPT_AT_RULES.has(unprefixed(node.name)) || loads(`@${node.name} ${node.params}`)) node.remove();
        else keepOffline(node);
        break;
      case "rule":
        if (loads(node.selector)) node.remove();
        else keepOffline(node);
        break;
    }
  });
}

/**
 * The CSS as it goes into the page: `</` cannot appear (`<\/` reads the same
 * in CSS strings and URLs and is nothing elsewhere), so no text can close the
 * `<style>` element it is written in; and the whole is checked once more.
 */
function finished(css: string): string {
  const safe = css.replaceAll("</", "<\\/");
  return loads(safe) ? "" : safe;
}

/** Whether any token of the CSS would fetch something: a URL that is not `data:`, a loading function, `@import`. */
function loads(css: string): boolean {
  const tokens = tokenize({ css });
  return tokens.some((token, i) => {
    switch (token[0]) {
      case "url-token":
        return !isDataUrl(token[4].value);
      case "bad-url-token":
        return true;
      case "at-keyword-token":
        return token[4].value.toLowerCase() === "import";
      case "function-token": {
        const name = unprefixed(token[4].value);
        if (name === "url") return !isDataUrl(argumentOf(tokens, i));
        return LOADING_FUNCTIONS.has(name);
      }
      default:
        return false;
    }
  });
}

/** The string a `url(` function token is given (`url("...")`), or "" when it is not one string. */
function argumentOf(tokens: CSSToken[], functionAt: number): string {
  const next = tokens.slice(functionAt + 1).find((token) => token[0] !== "whitespace-token");
  return next?.[0] === "string-token" ? next[4].value : "";
}

function isDataUrl(url: string): boolean {
  return /^data:/i.test(url.trim());
}

/** `-webkit-image-set` is `image-set`; names compared in lower case. */
function unprefixed(name: string): string {
  return name.toLowerCase().replace(/^-[a-z]+-/, "");
}
