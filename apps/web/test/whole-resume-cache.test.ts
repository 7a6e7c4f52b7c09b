import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { httpClient, type HttpClient } from "../../../test/http-client.ts";
import { newUser, tokenFor } from "../../../test/tokens.ts";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

/**
 * GET /me/resume is answered from memory while the resume is unchanged
 * (src/api/resume-api.ts): these are the ways it could go stale or leak.
 */
let web: WebServer;
let client: pg.Client;

beforeAll(async () => {
  web = await startWebServer({ RATE_LIMIT_PER_MINUTE: "20" });
  client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await web?.stop();
});

async function signedIn(): Promise<{ userId: string; api: HttpClient }> {
  const { userId, authorization } = await newUser();
  return { userId, api: httpClient(web.url, { authorization }) };
}

async function skillNames(api: HttpClient): Promise<string[]> {
  const resume = await api.get("/me/resume");
  expect(resume.status, resume.text).toBe(200);
  return (resume.body.skills as { name: string }[]).map((s) => s.name);
}

describe("GET /me/resume kept in memory", () => {
  it("shows every write through the API at once", async () => {
    const { api } = await signedIn();
    expect(await skillNames(api)).toEqual([]);
    expect(await skillNames(api)).toEqual([]);
    const created = await api.post("/me/skills", { name: "Go", category: "language" });
    expect(await skillNames(api)).toEqual(["Go"]);
    await api.put(`/me/skills/${created.body.id}`, { name: "Rust", category: "language" });
    expect(await skillNames(api)).toEqual(["Rust"]);
    await api.send("DELETE", `/me/skills/${created.body.id}`);
    expect(await skillNames(api)).toEqual([]);
  });

  it("shows a change made outside this server (another server, psql) at once", async () => {
    const { userId, api } = await signedIn();
    await api.post("/me/skills", { name: "Go", category: "language" });
    expect(await skillNames(api)).toEqual(["Go"]);
    await client.query(`UPDATE resume.skills SET name = 'Changed by SQL' WHERE user_id = $1`, [userId]);
    expect(await skillNames(api)).toEqual(["Changed by SQL"]);
    const markdown = await api.get("/me/resume?format=markdown");
    expect(markdown.text).toContain("Changed by SQL");
  });

  it("keeps JSON and Markdown apart, and one person's answer from another", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    await alice.api.put("/me/profile", { name: "Alice Example" });
    expect((await alice.api.get("/me/resume")).body.profile).toMatchObject({ name: "Alice Example" });
    const markdown = await alice.api.get("/me/resume?format=markdown");
    expect(markdown.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(markdown.text).toMatch(/^# Alice Example/m);
    expect((await alice.api.get("/me/resume")).headers.get("content-type")).toMatch(/^application\/json/);

    // Other query parameters change nothing: the format alone decides.
    expect((await alice.api.get("/me/resume?n=1&format=markdown")).text).toBe(markdown.text);
    const json = await alice.api.get("/me/resume?format=json&n=2");
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    expect(json.body.profile).toMatchObject({ name: "Alice Example" });
    const invalid = await alice.api.get("/me/resume?format=rtf");
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ statusCode: 400, error: "BAD_REQUEST" });
    // A theme that does not exist is refused with any format, kept answer or not.
    for (let i = 0; i < 2; i += 1)
      expect((await alice.api.get("/me/resume?format=json&theme=nope")).status).toBe(400);

    const bobs = await bob.api.get("/me/resume");
    expect(bobs.status).toBe(200);
    expect(bobs.body.profile).toBeNull();
    expect((await bob.api.get("/me/resume?format=markdown")).text).not.toContain("Alice");
  });

  it("still checks the token and the rate limit on every request", async () => {
    const { userId, api } = await signedIn();
    expect((await api.get("/me/resume")).status).toBe(200);
    expect((await api.get("/me/resume")).status).toBe(200);

    const anonymous = await fetch(`${web.url}/me/resume`);
    expect(anonymous.status).toBe(401);
    const expired = await fetch(`${web.url}/me/resume`, {
      headers: { authorization: `Bearer ${await tokenFor(userId, -120)}` },
    });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ statusCode: 401, error: "UNAUTHORIZED" });

    // The limit is 20 a minute: 2 above, 18 more pass, the next is refused.
    const statuses: number[] = [];
    for (let i = 0; i < 19; i += 1) statuses.push((await api.get("/me/resume")).status);
    expect(statuses.slice(0, 18).every((s) => s === 200)).toBe(true);
    const limited = await api.get("/me/resume");
    expect(statuses[18]).toBe(429);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited.body).toMatchObject({ statusCode: 429, error: "TOO_MANY_REQUESTS" });
  });

  it("answers with the security headers and API-Version like every API answer", async () => {
    const { api } = await signedIn();
    await api.get("/me/resume");
    const again = await api.get("/me/resume");
    expect(again.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(again.headers.get("x-content-type-options")).toBe("nosniff");
    expect(again.headers.get("api-version")).toBeTruthy();
  });
});
