import { parse, type DefaultTreeAdapterTypes } from "parse5";
import { describe, expect, it } from "vitest";
import { COLLECTIONS, profileFields, type WholeResume } from "../src/index.ts";
import { offlineDeclarations, offlineStylesheet } from "../src/themes/offline-css.ts";
import { offlinePage } from "../src/themes/offline-page.ts";
import { renderResumeHtml } from "../src/themes/render-resume-html.ts";
import { THEME_NAMES, type ThemeName } from "../src/themes/theme-names.ts";
import { activeContent } from "../../../test/active-content.ts";
import { resumeCarrying, THEME_PAYLOADS, XSS_VECTORS } from "../../../test/hostile-text.ts";

/** A resume as the store answers it, from the service's JSON (validated as the API validates it). */
function storedResume(body: ReturnType<typeof resumeCarrying>): WholeResume {
  const server = (kind: string, i: number) => ({
    id: `00000000-0000-4000-8000-00000000000${i}`,
    entity_type: kind,
    pk: "USER#u",
    sk: `${kind.toUpperCase()}#${i}`,
    created_at: "2026-11-26T10:00:00.000Z",
    updated_at: "2026-11-26T10:00:00.000Z",
  });
  const resume: Record<string, unknown> = {
    profile: { ...server("profile", 0), sk: "PROFILE", ...profileFields.parse(body.profile) },
  };
  for (const c of COLLECTIONS)
    resume[c.name] = body[c.name].map((entry, i) => ({
      ...server(c.entityType, i),
      ...(c.fields.parse(entry) as object),
    }));
  return resume as WholeResume;
}

/** Each text whose themed page holds anything that could run or load, with what it holds. */
async function activePages(theme: ThemeName, texts: string[]) {
  const pages = [];
  for (const text of texts) {
    const found = activeContent(await renderResumeHtml(storedResume(resumeCarrying(text)), theme));
    if (found.length > 0) pages.push({ text: text.slice(0, 120), found });
  }
  return pages;
}

/** Markup a person might type, closing the title first (stackoverflow writes the name into it raw). */
const MARKUP = "</title><b>x</b>";

describe.each(THEME_NAMES)("the %s page of a resume with hostile text in every field", (theme) => {
  it("holds nothing that runs or loads: the issue's payloads", async () => {
    expect(await activePages(theme, THEME_PAYLOADS)).toEqual([]);
  });

  // Two hundred pages rendered and parsed: seconds on a busy machine.
  it("holds nothing that runs or loads: every vector of the corpus", { timeout: 90_000 }, async () => {
    expect(await activePages(theme, XSS_VECTORS)).toEqual([]);
  });

  it("shows markup typed into any field as text, in the title too", async () => {
    const html = await renderResumeHtml(storedResume(resumeCarrying(MARKUP)), theme);
    const document = parse(html);
    const elements: DefaultTreeAdapterTypes.Element[] = [];
    const walk = (node: DefaultTreeAdapterTypes.ParentNode) =>
      node.childNodes.forEach((child) => {
        if ("tagName" in child) elements.push(child);
        if ("childNodes" in child) walk(child);
      });
    walk(document);
    const textOf = (element: DefaultTreeAdapterTypes.Element): string =>
      element.childNodes
        .map((child) => ("value" in child ? child.value : "tagName" in child ? textOf(child) : ""))
        .join("");
    expect(elements.filter((element) => element.tagName === "b")).toEqual([]);
    expect(textOf(elements.find((element) => element.tagName === "title")!)).toBe(MARKUP);
    const body = textOf(elements.find((element) => element.tagName === "body")!);
    // Each field the theme shows (even 18 places, stackoverflow 17): none of them dropped.
    expect(body.split(MARKUP).length - 1).toBeGreaterThanOrEqual(15);
  });
});

describe("the sanitizer on its own", () => {
  it("leaves nothing that runs or loads of any vector written into a page as markup", () => {
    const pages = [...THEME_PAYLOADS, ...XSS_VECTORS]
      .map((vector) => ({
        vector: vector.slice(0, 120),
        found: activeContent(offlinePage(`<html><head><title>t</title></head><body>${vector}</body></html>`)),
      }))
      .filter(({ found }) => found.length > 0);
    expect(pages).toEqual([]);
  });

  it("keeps a page's look: its styles, inline styles, data: images and icons, and http(s) links", () => {
    const page = offlinePage(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>T</title>` +
        `<style>body{color:#111;font:1em/1.5 sans-serif}@media print{a{color:inherit}}</style></head>` +
        `<body><p style="margin:0">Hi <a href="https://grace.example/" target="_blank">site</a>` +
        `<a href="mailto:g@example.org">mail</a><a href="#top">top</a></p>` +
        `<img src="data:image/png;base64,iVBORw0KGgo=" alt="me">` +
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor">` +
        `<circle cx="12" cy="12" r="3"></circle></svg></body></html>`,
    );
    expect(page).toBe(
      `<!doctype html>\n<html lang="en"><head><meta charset="utf-8" /><title>T</title>` +
        `<style>\nbody{color:#111;font:1em/1.5 sans-serif}@media print{a{color:inherit}}\n</style></head>` +
        `<body><p style="margin:0">Hi <a href="https://grace.example/" target="_blank">site</a>` +
        `<a href="mailto:g@example.org">mail</a><a href="#top">top</a></p>` +
        `<img src="data:image/png;base64,iVBORw0KGgo=" alt="me" />` +
        `<svg xmlns="http://www.w3.org/2000/svg" viewbox="0 0 24 24" fill="none" stroke="currentColor">` +
        `<circle cx="12" cy="12" r="3"></circle></svg></body></html>`,
    );
  });

  it("refuses scripts, handlers, frames, forms, remote and script URLs", () => {
    const page = offlinePage(
      `<head><base href="https://x.example/"><link rel="stylesheet" href="https://x.example/a.css">` +
        `<meta http-equiv="refresh" content="0;url=https://x.example/"><script>alert(1)</script></head>` +
        `<body onload="alert(1)"><iframe src="https://x.example/"></iframe><form action="https://x.example/">` +
        `<button formaction="javascript:alert(1)">b</button></form><a href="javascript:alert(1)">j</a>` +
        `<a href="data:text/html,x">d</a><a href="vbscript:x">v</a><a href="//x.example/">p</a>` +
        `<a href="relative/page">r</a><img src="https://x.example/a.png"><img src="a.png">` +
        `<svg><use href="https://x.example/s.svg#a"></use><rect fill="url(https://x.example/#p)"></rect></svg></body>`,
    );
    expect(activeContent(page)).toEqual([]);
    expect(page).not.toMatch(/x\.example|alert|javascript|vbscript|data:text|relative/);
  });
});

describe("offline CSS", () => {
  it("keeps CSS that loads nothing as it is, and data: URLs", () => {
    const css = `:root{--c:#111}a:not(.x)>b{color:var(--c);background:url("data:image/png;base64,AA") no-repeat}`;
    expect(offlineStylesheet(css)).toBe(css);
    expect(offlineDeclarations("color: red; margin: 0")).toBe("color: red; margin: 0");
  });

  it.each([
    ["an escaped url(", "a{background:u\\72l(//x.example/a)}"],
    ["an escape at its start", "a{background:\\75rl(https://x.example/a)}"],
    ["a comment inside the URL", "a{background:url(/**/https://x.example/a)}"],
    [
      "a load between two strings that look like a comment",
      'a{background:"/*" url(https://x.example/a) "*/"}',
    ],
    ["a quoted URL", "a{background:url( 'https://x.example/a' )}"],
    ["a relative URL", "a{background:url(a.png)}"],
    ["image-set() with strings", "a{background-image:image-set('https://x.example/a.png' 1x)}"],
    ["a prefixed image-set()", "a{background-image:-webkit-image-set(url(https://x.example/a.png) 1x)}"],
    ["expression()", "a{width:expression(alert(1))}"],
    ["a custom property holding a URL", "a{--i:url(https://x.example/a)}b{background:var(--i)}"],
    ["a font from elsewhere", "@font-face{font-family:x;src:url(https://x.example/f.woff2)}"],
    ["a load inside @media", "@media print{a{background:url(https://x.example/a)}}"],
  ])("drops %s", (_, css) => {
    expect(offlineStylesheet(css)).not.toMatch(/x\.example|a\.png|expression/);
  });

  it("drops @import in any spelling", () => {
    for (const css of ['@import "https://x.example/a.css";', "@import url(a.css);", "@IMPORT 'a.css';"])
      expect(offlineStylesheet(`${css} a{color:red}`)).toBe("a{color:red}");
    // CSS that postcss cannot read is dropped whole.
    expect(offlineStylesheet("@\\69mport 'a.css'; a{color:red}")).toBe("");
  });

  it("writes no text that could close the style element", () => {
    const css = offlineStylesheet(`a::after{content:"</style><script>alert(1)</script>"}`);
    expect(css).not.toMatch(/<\//);
    expect(css).toMatch(/^a::after\{content:".*style>.*script>"\}$/);
  });

  it("drops a style attribute's declarations that load, keeping the others", () => {
    expect(offlineDeclarations("color:red;background:u\\72l(//x.example/a);margin:0")).toBe(
      "color:red;margin:0",
    );
    expect(offlineDeclarations("background:url(https://x.example/a)")).toBe("");
    expect(offlineDeclarations("color:red} a{x:y")).toBe("");
  });
});
