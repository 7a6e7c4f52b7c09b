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
 * turns out stale; and those a write sends to keep a kept answer again: the
 * version read after PUT /me/profile, which puts the new profile into the
 * kept answer, or the resume read that builds it again after other writes.
 * Recorded on their way out of this process's node-postgres clients; the API
 * runs in this process.
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

/** The statements sent while `work` ran: version reads and resume reads. */
async function statementsOf(work: () => Promise<unknown>) {
  sent.length = 0;
  await work();
  return {
    versionReads: sent.filter((s) => /FROM resume\.versions WHERE user_id = ANY/.test(s)).length,
    resumeReads: sent.filter((s) => /AS resume_version/.test(s)).length,
  };
}

/** GET /me/resume (`query`: its query string), with its headline and statements. */
async function readResume(api: HttpClient, query = "") {
  let headline = "";
  const statements = await statementsOf(async () => {
    const answer = await api.get(`/me/resume${query}`);
    expect(answer.status, answer.text).toBe(200);
    headline = query.includes("markdown")
      ? answer.text.split("\n").find((line) => line.startsWith("**"))!
      : (answer.body.profile as { headline: string }).headline;
  });
  return { headline, ...statements };
}

const putProfile = async (api: HttpClient, headline: string, status = 200) =>
  statementsOf(async () => {
    const answer = await api.put("/me/profile", { name: "Ada", headline });
    expect(answer.status, answer.text).toBe(status);
  });

describe("GET /me/resume's round trips", () => {
  it("builds at once, without a version read, when nothing is kept; then reads the version alone", async () => {
    const { authorization } = await newUser();
    const api = httpClient(web.url, { authorization });
    await putProfile(api, "First");
    expect(await readResume(api)).toEqual({ headline: "First", versionReads: 0, resumeReads: 1 });
    expect(await readResume(api)).toEqual({ headline: "First", versionReads: 1, resumeReads: 0 });
  });

  it("a write keeps again the JSON answers given back since they were kept: the next read finds the write's", async () => {
    const { userId, authorization } = await newUser();
    const api = httpClient(web.url, { authorization });
    await putProfile(api, "First");
    await readResume(api);
    await readResume(api);
    const headersOf = (answer: Awaited<ReturnType<HttpClient["get"]>>) =>
      [...answer.headers].filter(([name]) => !["date", "x-request-id"].includes(name));

    // The kept answer with the new profile in it: the version read alone, not the resume.
    expect(await putProfile(api, "Second")).toEqual({ versionReads: 1, resumeReads: 0 });
    const changed = await api.get("/me/resume");
    expect(await readResume(api)).toEqual({ headline: "Second", versionReads: 1, resumeReads: 0 });
    // Byte for byte what a read builds (another key: nothing kept under it).
    const builtThen = await api.get("/me/resume?format=json");
    expect(changed.text).toBe(builtThen.text);
    expect(headersOf(changed)).toEqual(headersOf(builtThen));

    // A write that declares no change to the kept answer: built again, without the request's headers.
    const skill = await statementsOf(() => api.post("/me/skills", { name: "SQL", category: "language" }));
    expect(skill).toEqual({ versionReads: 0, resumeReads: 1 });
    const kept = await api.get("/me/resume");
    expect(await readResume(api)).toEqual({ headline: "Second", versionReads: 1, resumeReads: 0 });
    const built = await api.get("/me/resume?format=json");
    expect(built.text).toBe(kept.text);
    expect(headersOf(kept)).toEqual(headersOf(built));

    // A change this server did not see: the version read finds it, and the resume is read anew.
    await sql.query(`UPDATE resume.profiles SET headline = 'By SQL' WHERE user_id = $1`, [userId]);
    expect(await readResume(api)).toEqual({ headline: "By SQL", versionReads: 1, resumeReads: 1 });
    expect(await readResume(api)).toEqual({ headline: "By SQL", versionReads: 1, resumeReads: 0 });
  });

  it("builds nothing again that was not read since it was kept, nor after a write that failed, nor other formats", async () => {
    const { authorization } = await newUser();
    const api = httpClient(web.url, { authorization });
    await putProfile(api, "First");
    await readResume(api);
    await readResume(api);
    // Given back once: the first write keeps it again; not read since, the second does not.
    expect(await putProfile(api, "Second")).toEqual({ versionReads: 1, resumeReads: 0 });
    expect(await putProfile(api, "Third")).toEqual({ versionReads: 0, resumeReads: 0 });
    expect(await readResume(api)).toEqual({ headline: "Third", versionReads: 0, resumeReads: 1 });

    await readResume(api);
    expect(await putProfile(api, "x".repeat(10_000), 400)).toEqual({ versionReads: 0, resumeReads: 0 });
    expect(await readResume(api)).toEqual({ headline: "Third", versionReads: 0, resumeReads: 1 });

    expect(await readResume(api, "?format=markdown")).toMatchObject({
      headline: "**Third**",
      resumeReads: 1,
    });
    expect(await readResume(api, "?format=markdown")).toMatchObject({ versionReads: 1, resumeReads: 0 });
    expect(await putProfile(api, "Fourth")).toEqual({ versionReads: 0, resumeReads: 0 });
    expect(await readResume(api, "?format=markdown")).toEqual({
      headline: "**Fourth**",
      versionReads: 0,
      resumeReads: 1,
    });
  });

  it("keeps each path's JSON answers again once, whatever their theme or paper, and at most four paths", async () => {
    const { authorization } = await newUser();
    const api = httpClient(web.url, { authorization });
    await putProfile(api, "First");
    const queries = ["", "?format=json", "?theme=even", "?paper=letter&n=1"];
    for (const query of [...queries, ...queries]) await readResume(api, query);
    expect(await putProfile(api, "Second")).toEqual({ versionReads: 1, resumeReads: 0 });
    for (const query of queries)
      expect(await readResume(api, query)).toEqual({ headline: "Second", versionReads: 1, resumeReads: 0 });

    const versions: string[] = [];
    for (let i = 0; i < 5; i += 1)
      versions.push((await api.post<{ id: string }>("/me/versions", { name: `Version ${i}` })).body.id);
    for (const id of [...versions, ...versions]) {
      const answer = await api.get(`/me/versions/${id}/resume`);
      expect(answer.status, answer.text).toBe(200);
    }
    await readResume(api);
    await readResume(api);
    // GET /me/resume's answer changed (the version read), three versions' built again (not changed:
    // a version's resume is not GET /me/resume's), none for the fifth.
    expect(await putProfile(api, "Third")).toEqual({ versionReads: 1, resumeReads: 3 });
  });

  it("keeps again after a write over tRPC too (the editor's transport)", async () => {
    const { authorization } = await newUser();
    const api = httpClient(web.url, { authorization });
    await putProfile(api, "First");
    await readResume(api);
    expect((await readResume(api)).resumeReads).toBe(0);

    const written = await statementsOf(async () => {
      const answer = await fetch(`${web.url}/api/trpc/profile.put`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({ name: "Ada", headline: "Over tRPC" }),
      });
      expect(answer.status, await answer.text()).toBe(200);
    });
    expect(written).toEqual({ versionReads: 1, resumeReads: 0 });
    expect(await readResume(api)).toEqual({ headline: "Over tRPC", versionReads: 1, resumeReads: 0 });
  });
});
