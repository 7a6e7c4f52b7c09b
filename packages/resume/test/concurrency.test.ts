import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase, type Database } from "@app/db";
import { COLLECTIONS, LIMITS } from "../src/index.ts";
import { createEntry, getEntry, listEntries, replaceEntry } from "../src/store/collection-store.ts";

const hobbies = COLLECTIONS.find((c) => c.name === "hobbies")!;
const experience = COLLECTIONS.find((c) => c.name === "experience")!;
let db: Database;

beforeAll(() => {
  db = createDatabase({ connectionString: inject("databaseUrl"), poolSize: 20 });
});

afterAll(async () => {
  await db.$disconnect();
});

describe("under concurrency", () => {
  it("concurrent creates never push a collection past its cap", async () => {
    const userId = `cap-${randomUUID()}`;
    for (let i = 0; i < LIMITS.entriesPerCollection - 10; i += 1) {
      await createEntry(db, hobbies, userId, { name: `hobby ${i}`, description: null });
    }
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        createEntry(db, hobbies, userId, { name: `race ${i}`, description: null }),
      ),
    );
    const created = results.filter((r) => r.status === "fulfilled");
    const refused = results
      .filter((r) => r.status === "rejected")
      .map((r) => (r as PromiseRejectedResult).reason);
    expect(created).toHaveLength(10);
    expect(refused.every((e) => (e as { status?: number }).status === 409)).toBe(true);
    expect(await listEntries(db, hobbies, userId)).toHaveLength(LIMITS.entriesPerCollection);
  });

  it("concurrent replaces of one entry leave exactly one complete version", async () => {
    const userId = `replace-${randomUUID()}`;
    const base = experience.fields.parse({ organization: "Org", title: "T", start_date: "2020-01-01" });
    const { made: entry } = await createEntry(db, experience, userId, base);
    const versions = Array.from({ length: 20 }, (_, i) =>
      experience.fields.parse({
        organization: `Org ${i}`,
        title: `Title ${i}`,
        location: `City ${i}`,
        start_date: `20${10 + i}-01-01`,
        responsibilities: [`duty ${i}`],
      }),
    );
    await Promise.all(versions.map((v) => replaceEntry(db, experience, userId, entry.id, v)));
    const final = await getEntry(db, experience, userId, entry.id);
    const i = Number(String(final.organization).split(" ")[1]);
    expect(final).toMatchObject({ ...versions[i], id: entry.id });
  });
});
