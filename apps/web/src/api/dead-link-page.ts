/**
 * What a person who opens a share link that no longer works sees: the
 * public pages' one 404 (unknown, revoked, expired: nothing tells them
 * apart), as a page rather than the API's JSON error, for a browser.
 */
export const DEAD_LINK_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>This link no longer works</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; color: #1f2328; background: #fff; max-width: 34rem; margin: 4rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 0.75rem; }
</style>
</head>
<body>
<main>
<h1>This link no longer works</h1>
<p>The resume it led to is not shared here any more: the link may be mistyped, or its owner has revoked it or let it expire.</p>
<p>Ask the person who sent it for a new link.</p>
</main>
</body>
</html>
`;

/**
 * Whether a request's `Accept` takes an HTML page (a browser opening a link
 * sends `text/html,…`); a program's `*\/*`, or none, gets the JSON error.
 */
export function acceptsHtml(accept: string | undefined): boolean {
  return (accept ?? "").split(",").some((range) => {
    const [type, ...parameters] = range.split(";").map((part) => part.trim().toLowerCase());
    const quality = parameters.find((p) => p.startsWith("q="));
    return type === "text/html" && (quality === undefined || Number(quality.slice(2)) > 0);
  });
}
