/**
 * A theme's HTML page made self-contained: nothing in it loads from anywhere
 * (scripts, stylesheet links, remote fonts and images, frames, embeds go; CSS
 * keeps only `data:` URLs) and no inline handler is left. The page is also
 * sent with a Content-Security-Policy that forbids all of that, so this is the
 * second of two locks: browsers without CSP and saved copies get the same page.
 */
export function offlinePage(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script\s*>/gi, "")
    .replace(
      /<\/?(script|iframe|frame|frameset|object|embed|applet|video|audio|source|track|portal)\b[^>]*>/gi,
      "",
    )
    .replace(/<(link|base)\b[^>]*>/gi, "")
    .replace(/<meta\b[^>]*http-equiv[^>]*>/gi, "")
    .replace(/<img\b(?![^>]*\bsrc\s*=\s*["']?data:)[^>]*>/gi, "")
    .replace(/<(image|use)\b(?![^>]*\bhref\s*=\s*["']?(data:|#))[^>]*>/gi, "")
    .replace(/\s(on[a-z]+|srcset|formaction|ping|background)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, "")
    .replace(
      /(<style\b[^>]*>)([\s\S]*?)(<\/style\s*>)/gi,
      (_, open, css: string, close) => open + offlineCss(css) + close,
    )
    .replace(/\sstyle\s*=\s*("[^"]*"|'[^']*')/gi, (attribute: string) => offlineCss(attribute));
}

/** CSS that loads nothing: no `@import`, and `url()` only for `data:`. */
function offlineCss(css: string): string {
  return css.replace(/@import\b[^;]*;?/gi, "").replace(/url\(\s*(?!["']?data:)[^)]*\)/gi, "none");
}
