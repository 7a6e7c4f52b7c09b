import { THEME_NAMES, type ThemeName } from "@app/resume/client";
import { expect, request, test, type CDPSession, type Page } from "@playwright/test";
import { offlinePage } from "../packages/resume/src/themes/offline-page.ts";
import { activeInElement } from "../test/active-content.ts";
import { resumeCarrying, THEME_PAYLOADS, XSS_VECTORS } from "../test/hostile-text.ts";
import { tokenFor } from "../test/tokens.ts";
import { uniqueUser } from "./helpers.ts";

/**
 * The themed page of a resume whose every field holds hostile text, loaded
 * into Chromium as a saved copy would be: `setContent`, no
 * Content-Security-Policy, script enabled. No script may run (Chromium's
 * debugger reports every script the page compiles, event handlers
 * included), no request may leave (every request of the page is recorded
 * and refused), and the DOM Chromium built may hold nothing that would run
 * on a click or load later (links to `javascript:`, event attributes).
 */

// A trace would record each of hundreds of pages, and its snapshots run script in them.
test.use({ trace: "off" });

/** The page's made-up origin, so that `//x` and relative URLs resolve to requests we can see. */
const ORIGIN = "https://themed-page.test/";

interface Visit {
  requests: string[];
  scripts: string[];
  active: string[];
}

/** A browser page that loads HTML and reports what it requested, ran, and holds. */
async function probe(page: Page) {
  let requests: string[] = [];
  let scripts: string[] = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url === ORIGIN)
      return route.fulfill({ contentType: "text/html", body: "<!doctype html><title></title>" });
    requests.push(url);
    return route.abort();
  });
  page.on("dialog", (dialog) => {
    scripts.push(`${dialog.type()}(${dialog.message()})`);
    void dialog.dismiss();
  });
  await page.goto(ORIGIN);
  const cdp = await page.context().newCDPSession(page);
  // Playwright's own setContent runs in an isolated world; the page's scripts run in the default one.
  cdp.on("Debugger.scriptParsed", (event) => {
    if (event.executionContextAuxData?.isDefault)
      scripts.push(`script at ${event.url || "?"}, ${event.length} chars`);
  });
  await cdp.send("Debugger.enable");
  return async (html: string): Promise<Visit> => {
    requests = [];
    scripts = [];
    await page.setContent(html, { waitUntil: "load" });
    // Autofocus and the first frames come after load.
    await page.waitForTimeout(50);
    // The DOM is read over the debugging protocol, which runs no script in the page.
    const active = await domActiveContent(cdp);
    return { requests, scripts, active };
  };
}

interface DomNode {
  nodeType: number;
  nodeName: string;
  nodeValue?: string;
  attributes?: string[];
  children?: DomNode[];
  contentDocument?: DomNode;
  templateContent?: DomNode;
  shadowRoots?: DomNode[];
}

/** What in the DOM Chromium built could run or load, by the rules of test/active-content.ts. */
async function domActiveContent(cdp: CDPSession): Promise<string[]> {
  const { root } = (await cdp.send("DOM.getDocument", { depth: -1, pierce: true })) as { root: DomNode };
  const found: string[] = [];
  const visit = (node: DomNode) => {
    if (node.nodeType === 1) {
      const list = node.attributes ?? [];
      const attributes = list.flatMap((name, i) => (i % 2 === 0 ? [{ name, value: list[i + 1] ?? "" }] : []));
      const text = (node.children ?? []).map((child) => child.nodeValue ?? "").join("");
      found.push(...activeInElement(node.nodeName, attributes, text));
    }
    for (const child of [
      ...(node.children ?? []),
      ...(node.shadowRoots ?? []),
      ...(node.contentDocument ? [node.contentDocument] : []),
      ...(node.templateContent ? [node.templateContent] : []),
    ])
      visit(child);
  };
  visit(root);
  return found;
}

/** Each text whose page did anything, with what it did; empty when every page was inert. */
async function misbehaving(page: Page, pages: { text: string; html: string }[]) {
  const load = await probe(page);
  const found = [];
  for (const { text, html } of pages) {
    const visit = await load(html);
    if (visit.requests.length + visit.scripts.length + visit.active.length > 0)
      found.push({ text: text.slice(0, 120), ...visit });
  }
  return found;
}

const TEXTS = [...THEME_PAYLOADS, ...XSS_VECTORS];

/** Every text's resume, stored through the API, as each theme's page answers it. */
const pages = new Map<ThemeName, { text: string; html: string }[]>(THEME_NAMES.map((theme) => [theme, []]));

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const api = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  for (const text of TEXTS) {
    // One person per resume: three requests each stay far below the rate limit.
    const headers = { authorization: `Bearer ${await tokenFor(uniqueUser("hostile"))}` };
    const stored = await api.put("/me/resume", { headers, data: resumeCarrying(text) });
    expect(stored.status(), `${text}: ${await stored.text()}`).toBe(200);
    for (const theme of THEME_NAMES) {
      const answer = await api.get(`/me/resume?format=html&theme=${theme}`, { headers });
      expect(answer.status()).toBe(200);
      pages.get(theme)!.push({ text, html: await answer.text() });
    }
  }
  await api.dispose();
});

for (const theme of THEME_NAMES) {
  test(`the ${theme} page of resumes with hostile text in every field runs nothing and loads nothing, without its policy`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    expect(pages.get(theme)).toHaveLength(TEXTS.length);
    expect(await misbehaving(page, pages.get(theme)!)).toEqual([]);
  });
}

test("the sanitizer alone keeps every vector from running or loading, written into a page as markup", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const written = TEXTS.map((text) => ({
    text,
    html: offlinePage(`<!doctype html><html><head><title>t</title></head><body>${text}</body></html>`),
  }));
  expect(await misbehaving(page, written)).toEqual([]);
});

test("markup typed into any field shows as text on each theme's page, in the title too", async ({ page }) => {
  const markup = "</title><b>x</b>";
  const headers = { authorization: `Bearer ${await tokenFor(uniqueUser("markup"))}` };
  expect((await page.request.put("/me/resume", { headers, data: resumeCarrying(markup) })).status()).toBe(
    200,
  );
  for (const theme of THEME_NAMES) {
    const html = await (await page.request.get(`/me/resume?format=html&theme=${theme}`, { headers })).text();
    await page.setContent(html);
    await expect(page).toHaveTitle(markup);
    await expect(page.locator("body b")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(markup);
    expect(await page.getByText(markup, { exact: true }).count()).toBeGreaterThanOrEqual(5);
  }
});
