import { randomUUID } from "node:crypto";
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AnyRouter } from "@trpc/server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  createDatabase,
  findRepoRoot,
  migrateDatabase,
  migrationsDirectory,
  readMigrations,
  type Database,
} from "@app/db";
import { COLLECTIONS, readResumeVersions, resumeAppRouter } from "../src/index.ts";
import type { ResumeMeta } from "../src/trpc.ts";
import { createEntry, deleteEntry, replaceEntry } from "../src/store/collection-store.ts";
import { profileFields } from "../src/schemas/profile.ts";
import { putProfile } from "../src/store/profile-store.ts";
import { MINIMAL } from "../../../test/resume-fixtures.ts";
import { untilBlockedBy } from "../../../test/lock-waits.ts";
import { createScratchDatabase } from "../../../test/scratch-database.ts";

let db: Database;
let client: pg.Client;

beforeAll(async () => {
  db = createDatabase({ connectionString: inject("databaseUrl") });
  client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await db.$disconnect();
});

const versionOf = async (userId: string) => (await readResumeVersions(db, [userId])).get(userId)!;
const profile = profileFields.parse({ name: "Version Test" });

describe("resume version", () => {
  it("is null for someone who never wrote, and answers every id asked for", async () => {
    const [a, b] = [`never-${randomUUID()}`, `never-${randomUUID()}`];
    expect(await readResumeVersions(db, [a, b])).toEqual(
      new Map([
        [a, null],
        [b, null],
      ]),
    );
  });

  it("moves on every write to the profile and to each collection, and only for its owner", async () => {
    const userId = `versions-${randomUUID()}`;
    const bystander = `bystander-${randomUUID()}`;
    await putProfile(db, bystander, profile);
    const bystanderVersion = await versionOf(bystander);

    const seen = [(await versionOf(userId))?.version ?? null];
    const expectMoved = async (what: string) => {
      const now = await versionOf(userId);
      expect(now, what).not.toBeNull();
      expect(seen, what).not.toContain(now!.version);
      // Each move keeps the version it replaced: the one read before it (none before the first).
      expect(now!.previous, what).toBe(seen.at(-1));
      seen.push(now!.version);
    };
    await putProfile(db, userId, profile);
    await expectMoved("profile created");
    await putProfile(db, userId, { ...profile, headline: "changed" });
    await expectMoved("profile replaced");
    for (const c of COLLECTIONS) {
      const fields = c.fields.parse(MINIMAL[c.name]) as Record<string, unknown>;
      const { made: entry } = await createEntry(db, c, userId, fields);
      await expectMoved(`${c.name} created`);
      await replaceEntry(db, c, userId, entry.id, fields);
      await expectMoved(`${c.name} replaced`);
      await deleteEntry(db, c, userId, entry.id);
      await expectMoved(`${c.name} deleted`);
    }
    // A change from outside the service (psql, another server) moves it too.
    await client.query(`UPDATE resume.profiles SET headline = 'by hand' WHERE user_id = $1`, [userId]);
    await expectMoved("profile changed by SQL");

    expect(await versionOf(bystander)).toEqual(bystanderVersion);
  });

  it("keeps as the version replaced the one a concurrent writer committed while this write waited for it", async () => {
    const userId = `concurrent-${randomUUID()}`;
    await putProfile(db, userId, profile);
    const first = await versionOf(userId);
    await client.query("BEGIN");
    let waiting: Promise<unknown> | undefined;
    try {
      // Another table than the second write's: the two meet only at the person's version row.
      await client.query(
        `INSERT INTO resume.hobbies (id, user_id, name) VALUES (gen_random_uuid(), $1, 'H')`,
        [userId],
      );
      const { rows } = await client.query<{ version: string }>(
        "SELECT version::text AS version FROM resume.versions WHERE user_id = $1",
        [userId],
      );
      const firstWriters = rows[0]!.version;
      // The second write's trigger waits for the first writer's lock on the version row.
      waiting = putProfile(db, userId, { ...profile, headline: "second writer" });
      await untilBlockedBy(client);
      await client.query("COMMIT");
      await waiting;
      const now = await versionOf(userId);
      expect(now!.previous).toBe(firstWriters);
      expect(now!.previous).not.toBe(first!.version);
    } finally {
      await client.query("ROLLBACK").catch(() => {});
      await waiting?.catch(() => {});
    }
  });

  it("is moved exactly once by each route that declares its change to the kept answer (profile.put, above)", () => {
    // A server puts such a route's change into the kept answer when the move it reads is the only
    // one since (trpc.ts, ResumeMeta.wholeResumeChange): a new one needs its own test of that here.
    // Kept flat at run time ("profile.put"), whatever the router's type says.
    const router: AnyRouter = resumeAppRouter;
    const procedures = router._def.procedures as Record<string, { _def: { meta?: ResumeMeta } }>;
    const declaring = Object.entries(procedures)
      .filter(([, procedure]) => procedure._def.meta?.wholeResumeChange)
      .map(([path]) => path);
    expect(declaring).toEqual(["profile.put"]);
  });

  it("moves for everyone when a resume table is truncated", async () => {
    const userId = `truncate-${randomUUID()}`;
    await putProfile(db, userId, profile);
    const before = await versionOf(userId);
    await client.query("BEGIN");
    try {
      await client.query("TRUNCATE resume.hobbies");
      const { rows } = await client.query<{ version: string }>(
        "SELECT version::text AS version FROM resume.versions WHERE user_id = $1",
        [userId],
      );
      expect(rows[0]!.version).not.toBe(before!.version);
      const { rows: previous } = await client.query<{ previous: string }>(
        "SELECT previous_version::text AS previous FROM resume.versions WHERE user_id = $1",
        [userId],
      );
      expect(previous[0]!.previous).toBe(before!.version);
    } finally {
      await client.query("ROLLBACK");
    }
  });
});

describe("the resume_versions migration", () => {
  it("gives everyone who already had a resume a version", async () => {
    const scratch = await createScratchDatabase();
    try {
      const all = migrationsDirectory(findRepoRoot());
      const before = await mkdtemp(path.join(tmpdir(), "migrations-"));
      for (const m of await readMigrations(all)) {
        if (m.name >= "20261126000000_resume_versions") break;
        await cp(path.join(all, m.name), path.join(before, m.name), { recursive: true });
      }
      await migrateDatabase(scratch.url, before);
      const sql = new pg.Client({ connectionString: scratch.url });
      await sql.connect();
      try {
        await sql.query(`INSERT INTO resume.profiles (user_id, name) VALUES ('with-profile', 'P')`);
        await sql.query(
          `INSERT INTO resume.hobbies (id, user_id, name) VALUES (gen_random_uuid(), 'with-hobby', 'H')`,
        );
        await migrateDatabase(scratch.url, all);
        const { rows } = await sql.query<{ user_id: string }>(
          "SELECT user_id FROM resume.versions WHERE version IS NOT NULL ORDER BY user_id",
        );
        expect(rows.map((r) => r.user_id)).toEqual(["with-hobby", "with-profile"]);
      } finally {
        await sql.end();
      }
    } finally {
      await scratch.drop();
    }
  });
});
