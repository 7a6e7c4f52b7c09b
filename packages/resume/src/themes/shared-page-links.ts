/**
 * A shared version's page with a bar of links to its PDF (A4 and US Letter)
 * and Word files at the top. Written after the page was made inert (offline-page.ts), which keeps
 * only absolute links: these are relative (`<slug>.pdf` beside `/r/<slug>`),
 * so they hold behind any PUBLIC_URL. The slug is base64url, nothing to escape.
 */
export function withDownloadLinks(page: string, slug: string): string {
  const bar =
    // Out of the theme's layout, so that its body's grid or flex box leaves no gap of its own beside
    // the bar (even's 2em): placed at the top of the document, over room the html element keeps.
    `<nav aria-label="Download this resume" style="position:absolute;top:0;left:0;right:0;` +
    `box-sizing:border-box;height:${BAR_HEIGHT};margin:0;padding:8px 16px;font:14px/20px system-ui,sans-serif;` +
    // Its own colours, whatever the theme's (even's dark scheme made its text #f4f4f5 on #f4f4f5).
    "white-space:nowrap;overflow-x:auto;color:#18181b;background:#f4f4f5;border-bottom:1px solid #d4d4d8;" +
    'text-align:right">' +
    `Download: <a href="${slug}.pdf" download style="${LINK}">PDF (A4)</a> · ` +
    `<a href="${slug}.pdf?paper=letter" download style="${LINK}">PDF (US Letter)</a> · ` +
    `<a href="${slug}.docx" download style="${LINK}">Word</a></nav>` +
    `<style>html{padding-top:${BAR_HEIGHT}}</style>`;
  const body = /<body[^>]*>/i.exec(page);
  if (!body) return bar + page;
  const at = body.index + body[0].length;
  return page.slice(0, at) + bar + page.slice(at);
}

/** The bar's links: blue on its grey, 6.1:1. */
const LINK = "color:#1d4ed8";

/** The bar's height: a line of 20px, padding of 8px above and below, a border of 1px. */
const BAR_HEIGHT = "37px";
