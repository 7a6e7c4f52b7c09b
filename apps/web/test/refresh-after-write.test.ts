import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../../scripts/database.ts";
import { httpClient } from "../../../test/http-client.ts";
import { statementsBlockedBy, untilBlockedBy } from "../../../test/lock-waits.ts";
import { MINIMAL } from "../../../test/resume-fixtures.ts";
import { startResumeApi } from "../../../test/resume-api.ts";
import { createScratchDatabase, type ScratchDatabase } from "../../../test/scratch-database.ts";
import { newUser } from "../../../test/tokens.ts";
import type { WebServer } from "../../../test/web-server.ts";

/**
 * After a write its writer's kept JSON answer is kept again before the write
 * answers (src/api/resume-api.ts, refreshAfterWrite): built again, waiting
 * for that at most a second, or, after PUT /me/profile, the kept answer with
 * the new profile in it when no other change came between. Here a whole-resume
 * read cannot finish while another session holds a lock it waits for (not the
 * writes). On a database of its own, so that the lock stops no other test.
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

/** A person with a profile, a skill and a job, whose whole resume was read twice (kept, then given back). */
async function personWithKeptResume() {
  const { authorization, userId } = await newUser();
  const api = httpClient(web.url, { authorization });
  expect((await api.put("/me/profile", { name: "Ada", headline: "First" })).status).toBe(200);
  expect((await api.post("/me/skills", MINIMAL.skills)).status).toBe(201);
  expect((await api.post("/me/experience", MINIMAL.experience)).status).toBe(201);
  expect((await api.get("/me/resume")).status).toBe(200);
  expect((await api.get("/me/resume")).status).toBe(200);
  return { api, userId };
}

/** `run` while another session holds resume.goals, which every whole-resume read also reads. */
async function whileResumeReadsWait<T>(run: () => Promise<T>): Promise<T> {
  await sql.query("BEGIN");
  try {
    await sql.query("LOCK TABLE resume.goals IN ACCESS EXCLUSIVE MODE");
    return await run();
  } finally {
    await sql.query("ROLLBACK");
  }
}

describe("a write whose answer cannot be built again", () => {
  it("answers within about a second, and the next read has the write's answer", async () => {
    const { api } = await personWithKeptResume();
    const { written, waitedMs } = await whileResumeReadsWait(async () => {
      const started = performance.now();
      const written = await api.post("/me/skills", { ...MINIMAL.skills, name: "SQL" });
      return { written, waitedMs: performance.now() - started };
    });

    expect(written.status, written.text).toBe(201);
    // At least the bound, and less than the lock timeout (2.5 s) after which the build would fail by itself.
    expect(waitedMs).toBeGreaterThanOrEqual(990);
    expect(waitedMs).toBeLessThan(2_400);
    const read = await api.get<{ skills: { name: string }[] }>("/me/resume");
    expect(read.status).toBe(200);
    expect(read.body.skills.map((s) => s.name)).toEqual(["TypeScript", "SQL"]);
  });
});

describe("reads while a write keeps its answer again", () => {
  it("wait for that answer rather than build it beside the write, for at most a second", async () => {
    const { api } = await personWithKeptResume();
    const { blockedAtFirst, reads } = await whileResumeReadsWait(async () => {
      const written = api.post("/me/skills", { ...MINIMAL.skills, name: "SQL" });
      // The write is committed and its answer's build waits for the lock.
      await untilBlockedBy(sql);
      const reads = [1, 2, 3].map(() => api.get<{ skills: { name: string }[] }>("/me/resume"));
      // A read that built its own answer would be a statement waiting beside the write's at once.
      const blockedAtFirst: number[] = [];
      for (let sample = 0; sample < 5; sample++) {
        await new Promise((resolve) => setTimeout(resolve, 40));
        blockedAtFirst.push(await statementsBlockedBy(sql));
      }
      // Once the write stops waiting (a second), so do the reads: each builds its own answer.
      expect((await written).status).toBe(201);
      await untilBlockedBy(sql, 4);
      return { blockedAtFirst, reads };
    });

    expect(blockedAtFirst).toEqual([1, 1, 1, 1, 1]);
    for (const read of await Promise.all(reads)) {
      expect(read.status, read.text).toBe(200);
      expect(read.body.skills.map((s) => s.name)).toEqual(["TypeScript", "SQL"]);
    }
  });

  it("at a version newer than the kept answer, wait for the write under way, then answer that version", async () => {
    const { api, userId } = await personWithKeptResume();
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    await sql.query("BEGIN");
    try {
      // The write waits for the profile row, before it moves the version.
      await sql.query("SELECT 1 FROM resume.profiles WHERE user_id = $1 FOR UPDATE", [userId]);
      const written = api.put("/me/profile", { name: "Ada", headline: "Fourth" });
      await untilBlockedBy(sql);
      // Another client's change, committed meanwhile: the kept answer is of the version before it.
      await other.query("UPDATE resume.skills SET name = 'Go' WHERE user_id = $1", [userId]);
      let answeredAt: number | undefined;
      const read = api.get<{ skills: { name: string }[] }>("/me/resume").then((result) => {
        answeredAt = performance.now();
        return result;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      // A build would have answered by now; the read waits for the write (at most a second).
      expect(answeredAt).toBeUndefined();
      const releasedAt = performance.now();
      await sql.query("COMMIT");
      expect((await written).status).toBe(200);
      const answer = await read;
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.skills.map((s) => s.name)).toEqual(["Go"]);
      expect(answeredAt).toBeGreaterThanOrEqual(releasedAt);
    } finally {
      await sql.query("ROLLBACK").catch(() => {});
      await other.end();
    }
  });
});

describe("PUT /me/profile after a read", () => {
  it("keeps the read's answer with the new profile in it, without reading the resume again", async () => {
    const { api } = await personWithKeptResume();
    // Keys jsonb orders otherwise than JavaScript: the change must put them as a build reads them.
    const links = {
      zz: "https://z.example",
      é: "https://e.example",
      "10": "https://ten.example",
      a: "https://a.example",
    };
    const [written, read] = await whileResumeReadsWait(async () => {
      const written = await api.put("/me/profile", { name: "Ada", headline: "Second", links });
      // A build would wait for the lock until its statement timed out: this one is answered from memory.
      return [written, await api.get<{ profile: { headline: string } }>("/me/resume")] as const;
    });
    expect(written.status, written.text).toBe(200);
    expect(read.status, read.text).toBe(200);
    expect(read.body.profile).toEqual(written.body);

    // The same bytes a build gives (another key of the cache: format=json is built from the database).
    const built = await api.get("/me/resume?format=json");
    expect(built.status).toBe(200);
    expect(read.text).toBe(built.text);
    expect(read.headers.get("content-type")).toBe(built.headers.get("content-type"));
  });

  it("builds the answer again when another change came between the read and the write", async () => {
    const { api, userId } = await personWithKeptResume();
    // Another client's change, committed after the answer was kept and before the write moved the
    // version: the write's trigger waits for this session's lock on the person's version row.
    await sql.query("BEGIN");
    let written: ReturnType<typeof api.put> | undefined;
    try {
      await sql.query(`UPDATE resume.skills SET name = 'Rust' WHERE user_id = $1`, [userId]);
      written = api.put("/me/profile", { name: "Ada", headline: "Third" });
      await untilBlockedBy(sql);
      await sql.query("COMMIT");
    } finally {
      await sql.query("ROLLBACK").catch(() => {});
    }
    expect((await written).status).toBe(200);

    const read = await api.get<{ profile: { headline: string }; skills: { name: string }[] }>("/me/resume");
    expect(read.status).toBe(200);
    expect(read.body.profile.headline).toBe("Third");
    expect(read.body.skills.map((s) => s.name)).toEqual(["Rust"]);
  });
});
