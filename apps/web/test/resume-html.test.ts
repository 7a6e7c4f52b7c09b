import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THEME_NAMES } from "@app/resume/client";
import { activeContent } from "../../../test/active-content.ts";
import { httpClient, type HttpClient } from "../../../test/http-client.ts";
import { startResumeApi } from "../../../test/resume-api.ts";
import { COMPLETE } from "../../../test/resume-fixtures.ts";
import { newUser } from "../../../test/tokens.ts";
import type { WebServer } from "../../../test/web-server.ts";

const POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";
const HOSTILE = "<script>alert(1)</script><img src=https://evil.example/x.png>";

let web: WebServer;
let api: HttpClient;

beforeAll(async () => {
  web = await startResumeApi();
  api = httpClient(web.url, { authorization: (await newUser()).authorization });
  await api.put("/me/profile", {
    name: "Grace Hopper",
    headline: HOSTILE,
    email: "grace@example.org",
    links: { github: "https://github.com/grace" },
  });
  await api.post("/me/experience", COMPLETE.experience);
  await api.post("/me/skills", COMPLETE.skills);
});

afterAll(async () => {
  await web?.stop();
});

describe("GET /me/resume?format=html", () => {
  it.each(THEME_NAMES)("renders a whole page in the %s theme that loads and runs nothing", async (theme) => {
    const page = await api.get(`/me/resume?format=html&theme=${theme}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(POLICY);
    expect(page.text).toMatch(/^\s*<!doctype html>/i);
    expect(page.text).toContain("Grace Hopper");
    expect(page.text).toContain("Senior Engineer");
    // Responsibilities and accomplishments both show, as the job's highlights.
    expect(page.text).toContain("Build the billing system");
    expect(page.text).toContain("Cut invoice time by 80%");
    expect(activeContent(page.text)).toEqual([]);
    expect(page.text).not.toContain("<script>alert(1)");
    // The headline's markup shows as the text it is.
    expect(page.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("uses the first installed theme when none is named", async () => {
    const named = await api.get(`/me/resume?format=html&theme=${THEME_NAMES[0]}`);
    expect((await api.get("/me/resume?format=html")).text).toBe(named.text);
  });

  it("answers each theme its own page, also from memory", async () => {
    const [first, second] = THEME_NAMES;
    const one = await api.get(`/me/resume?format=html&theme=${first}`);
    const other = await api.get(`/me/resume?format=html&theme=${second}`);
    expect([one.status, other.status]).toEqual([200, 200]);
    expect(other.text).not.toBe(one.text);
    expect((await api.get(`/me/resume?format=html&theme=${first}`)).text).toBe(one.text);
  });

  it("refuses an unknown theme with a 400 that lists the installed ones", async () => {
    const answer = await api.get("/me/resume?format=html&theme=nope");
    expect(answer.status).toBe(400);
    expect(answer.body.issues).toEqual([
      { path: "theme", message: `must be one of the installed themes: ${THEME_NAMES.join(", ")}` },
    ]);
  });

  it("sends one Content-Security-Policy, the page's, never the API's beside it", async () => {
    const response = await fetch(`${web.url}/me/resume?format=html`, {
      headers: { authorization: (await newUser()).authorization },
    });
    expect(response.headers.get("content-security-policy")).toBe(POLICY);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });
});
