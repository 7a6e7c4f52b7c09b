import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../../scripts/database.ts";
import { httpClient } from "../../../test/http-client.ts";
import { startResumeApi } from "../../../test/resume-api.ts";
import { createScratchDatabase, type ScratchDatabase } from "../../../test/scratch-database.ts";
import { newUser } from "../../../test/tokens.ts";
import type { WebServer } from "../../../test/web-server.ts";

/**
 * A write builds its writer's kept JSON answer again before it answers
 * (src/api/resume-api.ts, refreshAfterWrite), and waits for that at most a
 * second. Here the build cannot finish: another session holds a lock the
 * whole-resume read waits for (not the write). On a database of its own, so
 * that the lock stops no other test.
 */
let database: ScratchDatabase;
let web: WebServer;
let sql: pg.Client;

beforeAll(async () => {
  database = await createScratchDatabase();
  await migrate(database.url);
  web = await startResumeApi({ databaseUrl: database.url });
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
});

afterAll(async () => {
  await sql?.end();
  await web?.stop();
  await database?.drop();
});

describe("a write whose answer cannot be built again", () => {
  it("answers within about a second, and the next read has the write's answer", async () => {
    const { authorization } = await newUser();
    const api = httpClient(web.url, { authorization });
    expect((await api.put("/me/profile", { name: "Ada", headline: "First" })).status).toBe(200);
    expect((await api.get("/me/resume")).status).toBe(200);
    expect((await api.get("/me/resume")).status).toBe(200);

    await sql.query("BEGIN");
    await sql.query("LOCK TABLE resume.goals IN ACCESS EXCLUSIVE MODE");
    const started = performance.now();
    const written = await api.put("/me/profile", { name: "Ada", headline: "Second" });
    const waitedMs = performance.now() - started;
    await sql.query("ROLLBACK");

    expect(written.status, written.text).toBe(200);
    expect(written.body).toMatchObject({ headline: "Second" });
    // At least the bound, and less than the lock timeout (2.5 s) after which the build would fail by itself.
    expect(waitedMs).toBeGreaterThanOrEqual(990);
    expect(waitedMs).toBeLessThan(2_400);
    const read = await api.get("/me/resume");
    expect(read.status).toBe(200);
    expect(read.body.profile).toMatchObject({ headline: "Second" });
  });
});
