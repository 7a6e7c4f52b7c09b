import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase, type Database, type PoolTransaction } from "@app/db";
import { COLLECTIONS, getWholeResume } from "../src/index.ts";
import { createEntry, listEntries } from "../src/store/collection-store.ts";
import { profileFields } from "../src/schemas/profile.ts";
import { putProfile } from "../src/store/profile-store.ts";
import { tailoredVersionFields } from "../src/schemas/tailored-version.ts";
import { createTailoredVersion, getTailoredResume } from "../src/store/tailored-versions.ts";
import { COMPLETE, MINIMAL } from "../../../test/resume-fixtures.ts";

const userId = `query-test-${randomUUID()}`;
let db: Database;
let pool: pg.Pool;
let counted: PoolTransaction;
const statements: string[] = [];

beforeAll(async () => {
  db = createDatabase({ connectionString: inject("databaseUrl") });
  await putProfile(db, userId, profileFields.parse({ name: "Query Test" }));
  for (const c of COLLECTIONS) {
    for (let i = 0; i < 20; i += 1) {
      await createEntry(
        db,
        c,
        userId,
        c.fields.parse(i % 2 ? COMPLETE[c.name] : MINIMAL[c.name]) as Record<string, unknown>,
      );
    }
  }
  // A client whose every statement is recorded on its way to PostgreSQL.
  pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0] as string | { text: string };
      statements.push(typeof first === "string" ? first : first.text);
      return query(...args);
    };
  });
  // Queried as a transaction's statements are: one connection, each statement recorded.
  counted = { query: async (sql, ...values) => (await pool.query(sql, values)).rows };
});

afterAll(async () => {
  await pool.end();
  await db.$disconnect();
});

describe("getWholeResume", () => {
  it("reads the profile and all six collections (6 × 20 entries) in one SQL statement", async () => {
    await counted.query("SELECT 1"); // connect outside the count
    statements.length = 0;
    const resume = await getWholeResume(counted, userId);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^SELECT json_build_object/);

    expect(resume.profile?.name).toBe("Query Test");
    for (const c of COLLECTIONS) {
      expect(resume[c.name], c.name).toHaveLength(20);
      expect(resume[c.name]).toEqual(await listEntries(db, c, userId));
    }
  });
});

describe("getTailoredResume", () => {
  it("reads a version, the profile and the entries it shows of all six collections in one SQL statement", async () => {
    const experience = await listEntries(db, COLLECTIONS[0], userId);
    const chosen = [experience[3]!.id, experience[7]!.id];
    const { made: version } = await createTailoredVersion(
      db,
      userId,
      tailoredVersionFields.parse({
        name: "Two jobs",
        headline: "Tailored",
        include: { experience: chosen },
      }),
    );
    await counted.query("SELECT 1"); // connect outside the count
    statements.length = 0;
    const { resume } = await getTailoredResume(counted, userId, version.id);
    expect(statements).toHaveLength(1);

    expect(resume.profile?.headline).toBe("Tailored");
    expect(resume.experience.map((e) => e.id)).toEqual([experience[3]!.id, experience[7]!.id]);
    for (const c of COLLECTIONS.slice(1)) expect(resume[c.name], c.name).toHaveLength(20);
  });
});
