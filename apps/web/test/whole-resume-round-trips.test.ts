import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { httpClient, type HttpClient } from "../../../test/http-client.ts";
import { startResumeApi } from "../../../test/resume-api.ts";
import { newUser } from "../../../test/tokens.ts";
import type { WebServer } from "../../../test/web-server.ts";

/**
 * The statements GET /me/resume sends to PostgreSQL (src/api/resume-api.ts):
 * one version read for an answer kept in memory, one statement that reads the
 * resume with its version when nothing is kept, and both when the kept answer
 * turns out stale. Recorded on their way out of this process's node-postgres
 * clients; the API runs in this process.
 */
const sent: string[] = [];
const originalQuery = pg.Client.prototype.query;
let web: WebServer;
let sql: pg.Client;

beforeAll(async () => {
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    sent.push(typeof first === "string" ? first : (first?.text ?? ""));
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  web = await startResumeApi();
  sql = new pg.Client({ connectionString: inject("databaseUrl") });
  await sql.connect();
});

afterAll(async () => {
  await sql?.end();
  await web?.stop();
  pg.Client.prototype.query = originalQuery;
});

/** GET /me/resume's statements: version reads and resume reads. */
async function readResume(api: HttpClient) {
  sent.length = 0;
  const answer = await api.get("/me/resume");
  expect(answer.status, answer.text).toBe(200);
  return {
    headline: (answer.body.profile as { headline: string }).headline,
    versionReads: sent.filter((s) => /FROM resume\.versions WHERE user_id = ANY/.test(s)).length,
    resumeReads: sent.filter((s) => /AS resume_version/.test(s)).length,
  };
}

describe("GET /me/resume's round trips", () => {
  it("builds at once, without a version read, when nothing is kept and after a write through this server", async () => {
    const { userId, authorization } = await newUser();
    const api = httpClient(web.url, { authorization });
    expect((await api.put("/me/profile", { name: "Ada", headline: "First" })).status).toBe(200);

    expect(await readResume(api)).toEqual({ headline: "First", versionReads: 0, resumeReads: 1 });
    expect(await readResume(api)).toEqual({ headline: "First", versionReads: 1, resumeReads: 0 });

    expect((await api.put("/me/profile", { name: "Ada", headline: "Second" })).status).toBe(200);
    expect(await readResume(api)).toEqual({ headline: "Second", versionReads: 0, resumeReads: 1 });
    expect(await readResume(api)).toEqual({ headline: "Second", versionReads: 1, resumeReads: 0 });

    // A change this server did not see: the version read finds it, and the resume is read anew.
    await sql.query(`UPDATE resume.profiles SET headline = 'By SQL' WHERE user_id = $1`, [userId]);
    expect(await readResume(api)).toEqual({ headline: "By SQL", versionReads: 1, resumeReads: 1 });
    expect(await readResume(api)).toEqual({ headline: "By SQL", versionReads: 1, resumeReads: 0 });
  });

  it("forgets the writer's answers after a write over tRPC too (the editor's transport)", async () => {
    const { authorization } = await newUser();
    const api = httpClient(web.url, { authorization });
    expect((await api.put("/me/profile", { name: "Ada", headline: "First" })).status).toBe(200);
    await readResume(api);
    expect((await readResume(api)).resumeReads).toBe(0);

    const written = await fetch(`${web.url}/api/trpc/profile.put`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ name: "Ada", headline: "Over tRPC" }),
    });
    expect(written.status, await written.text()).toBe(200);
    expect(await readResume(api)).toEqual({ headline: "Over tRPC", versionReads: 0, resumeReads: 1 });
  });
});
