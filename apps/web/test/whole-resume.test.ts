import { marked } from "marked";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS } from "@app/resume";
import { httpClient, type HttpClient } from "../../../test/http-client.ts";
import { COMPLETE, MINIMAL } from "../../../test/resume-fixtures.ts";
import { newUser } from "../../../test/tokens.ts";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

let web: WebServer;
let api: HttpClient;

beforeAll(async () => {
  web = await startWebServer();
  api = httpClient(web.url, { authorization: (await newUser()).authorization });
  await api.put("/me/profile", {
    name: "Grace Hopper",
    headline: "Rear Admiral",
    summary: "Invented the first compiler.\n\nMade COBOL happen.",
    location: "Arlington",
    email: "grace@example.org",
    links: { site: "https://grace.example/(home)" },
    goals_summary: "Teach everyone to program.",
  });
  for (const c of COLLECTIONS) {
    await api.post(c.path, MINIMAL[c.name]);
    await api.post(c.path, COMPLETE[c.name]);
  }
});

afterAll(async () => {
  await web?.stop();
});

describe("GET /me/resume", () => {
  it("as JSON equals the profile and every collection's list", async () => {
    const resume = await api.get("/me/resume");
    expect(resume.status).toBe(200);
    expect(resume.headers.get("content-type")).toMatch(/^application\/json/);
    const expected: Record<string, unknown> = { profile: (await api.get("/me/profile")).body };
    for (const c of COLLECTIONS) expected[c.name] = (await api.get(c.path)).body.items;
    expect(resume.body).toEqual(expected);
    expect((await api.get("/me/resume?format=json")).body).toEqual(expected);
  });

  it("answers profile: null with empty collections for a person who stored nothing", async () => {
    const stranger = httpClient(web.url, { authorization: (await newUser()).authorization });
    const resume = await stranger.get("/me/resume");
    expect(resume.status).toBe(200);
    expect(resume.body).toEqual({
      profile: null,
      experience: [],
      education: [],
      skills: [],
      certifications: [],
      hobbies: [],
      goals: [],
    });
    expect((await stranger.get("/me/resume?format=markdown")).text).toBe("# Resume\n");
  });

  it("rejects an unknown format or paper, listing the allowed values", async () => {
    const format = await api.get("/me/resume?format=rtf");
    expect(format.status).toBe(400);
    expect(format.body).toMatchObject({ error: "BAD_REQUEST", issues: [{ path: "format" }] });
    expect(format.text).toMatch(/json.*jsonresume.*markdown.*html.*pdf.*docx.*text/);
    const paper = await api.get("/me/resume?format=pdf&paper=a5");
    expect(paper.status).toBe(400);
    expect(paper.body).toMatchObject({ error: "BAD_REQUEST", issues: [{ path: "paper" }] });
    expect(paper.text).toMatch(/a4.*letter/);
  });

  it("as Markdown is text/markdown with the header and every section in a conventional layout", async () => {
    const result = await api.get("/me/resume?format=markdown");
    expect(result.status).toBe(200);
    expect(result.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const markdown = result.text;
    expect(
      markdown.startsWith(
        "# Grace Hopper\n\n**Rear Admiral**\n\nArlington · [grace@example.org](mailto:grace@example.org) · [site](https://grace.example/%28home%29)\n",
      ),
    ).toBe(true);
    const headings = [...markdown.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual([
      "Summary",
      "Experience",
      "Education",
      "Skills",
      "Certifications",
      "Hobbies",
      "Goals",
    ]);
    expect(markdown).toContain(
      "### Senior Engineer — Acme\n*Apr 2019 – Jun 2021 · Berlin · Contract*\n\n- Build the billing system",
    );
    expect(markdown).toContain("### Engineer — Acme\n*Jan 2020 – Present*");
    expect(markdown).toContain(
      "- **Languages:** TypeScript (intermediate), Go (advanced, 4.5 yrs: goroutines, gRPC)",
    );
    expect(markdown).toContain("Teach everyone to program.\n\n- Learn Rust (learning · active)");
  });
});

describe("Markdown escaping", () => {
  it("shows hostile text as text: no HTML, no injected structure", async () => {
    const hostile = httpClient(web.url, { authorization: (await newUser()).authorization });
    await hostile.put("/me/profile", {
      name: "# <script>alert(1)</script>",
      summary: "## Fake heading\n- fake item\n<img src=x onerror=alert(1)>\n    indented code\n> quote",
      headline: "**bold** _it_ `code` [link](javascript:alert(1))",
    });
    await hostile.post("/me/experience", {
      ...MINIMAL.experience,
      title: "<img src=x onerror=alert(1)>",
      responsibilities: ["- nested", "1. numbered", "| a | b |", "&lt;script&gt;"],
    });
    const markdown = (await hostile.get("/me/resume?format=markdown")).text;
    const html = await marked.parse(markdown);

    expect(html).not.toMatch(/<script|<img|<[^>]*onerror|<a href="javascript/i);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html).toContain("<h1># &lt;script&gt;alert(1)&lt;/script&gt;</h1>");
    expect([...html.matchAll(/<h2>(.*?)<\/h2>/g)].map((m) => m[1])).toEqual(["Summary", "Experience"]);
    expect(html).not.toMatch(/<strong>bold|<em>it|<code>|<blockquote>|<pre>|<table>|<ol>/);
    expect(html).toContain("<li>- nested</li>");
    expect(html).toContain("<li>1. numbered</li>");
    expect(html).toContain("<li>&amp;lt;script&amp;gt;</li>");
  });
});
