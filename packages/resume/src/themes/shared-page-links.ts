/**
 * A shared version's page with a bar of links to its PDF (A4 and US Letter)
 * and Word files at the top. Written after the page was made inert (offline-page.ts), which keeps
 * only absolute links: these are relative (`<slug>.pdf` beside `/r/<slug>`),
 * so they hold behind any PUBLIC_URL. The slug is base64url, nothing to escape.
 */
export function withDownloadLinks(page: string, slug: string): string {
  const bar =
    // A bar across the whole page, whatever layout the theme gives its body (a grid, a flex box).
    '<nav aria-label="Download this resume" style="display:block;box-sizing:border-box;width:100%;' +
    "grid-column:1/-1;flex:0 0 100%;margin:0;font:14px/1.5 system-ui,sans-serif;padding:8px 16px;" +
    'background:#f4f4f5;border-bottom:1px solid #d4d4d8;text-align:right">' +
    `Download: <a href="${slug}.pdf" download>PDF (A4)</a> · ` +
    `<a href="${slug}.pdf?paper=letter" download>PDF (US Letter)</a> · ` +
    `<a href="${slug}.docx" download>Word</a></nav>`;
  const body = /<body[^>]*>/i.exec(page);
  if (!body) return bar + page;
  const at = body.index + body[0].length;
  return page.slice(0, at) + bar + page.slice(at);
}
