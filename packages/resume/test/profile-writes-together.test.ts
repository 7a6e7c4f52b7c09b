import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase, inTransaction, isDatabaseUnavailable, isRefusedValue, type Database } from "@app/db";
import { profileFields } from "../src/schemas/profile.ts";
import { getProfile, putProfile } from "../src/store/profile-store.ts";
import { untilBlockedBy } from "../../../test/lock-waits.ts";

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

const fields = (name: string) =>
  profileFields.parse({ name, links: { site: `https://example.com/${encodeURIComponent(name)}` } });

/** The transaction that wrote each person's profile row as it is now. */
async function writerOf(userIds: string[]): Promise<Map<string, string>> {
  const { rows } = await client.query<{ user_id: string; xmin: string }>(
    "SELECT user_id, xmin::text FROM resume.profiles WHERE user_id = ANY($1)",
    [userIds],
  );
  return new Map(rows.map(({ user_id, xmin }) => [user_id, xmin]));
}

/**
 * Three people's ids; the third has a profile, whose row another session
 * holds (FOR UPDATE, as an import of that person's resume does) while `during` runs.
 */
async function withThirdRowLocked(
  label: string,
  during: (people: [string, string, string], session: pg.Client) => Promise<void>,
): Promise<[string, string, string]> {
  const people = ["first", "a", "b"].map((name) => `${label}-${name}-${randomUUID()}`) as [
    string,
    string,
    string,
  ];
  await putProfile(db, people[2], fields("B before"));
  const session = new pg.Client({ connectionString: inject("databaseUrl") });
  await session.connect();
  try {
    await session.query("BEGIN");
    await session.query("SELECT 1 FROM resume.profiles WHERE user_id = $1 FOR UPDATE", [people[2]]);
    await during(people, session);
  } finally {
    await session.query("ROLLBACK");
    await session.end();
  }
  return people;
}

describe("profile writes on the database", () => {
  it("that arrive while one runs commit together in the next statement, each answered with its own", async () => {
    const people = Array.from({ length: 5 }, () => `together-${randomUUID()}`);
    // The first runs at once; the other four wait for it and go in one statement.
    const answers = await Promise.all(people.map((userId, i) => putProfile(db, userId, fields(`P${i}`))));

    expect(answers.map(({ name, pk }) => [name, pk])).toEqual(
      people.map((userId, i) => [`P${i}`, `USER#${userId}`]),
    );
    const writers = await writerOf(people);
    expect(writers.get(people[0]!)).not.toBe(writers.get(people[1]!));
    expect(new Set(people.slice(1).map((userId) => writers.get(userId))).size).toBe(1);
    for (const [i, userId] of people.entries()) {
      const stored = await getProfile(db, userId);
      expect(stored).toEqual(answers[i]);
      expect(stored?.links).toEqual({ site: `https://example.com/P${i}` });
    }
  });

  it("keep a person's order: a second write waiting goes in a later statement, and the last one stays", async () => {
    const [a, b] = [`order-a-${randomUUID()}`, `order-b-${randomUUID()}`];
    const writes: [string, string][] = [
      [a, "A1"],
      [a, "A2"],
      [b, "B1"],
      [a, "A3"],
    ];
    const answers = await Promise.all(writes.map(([userId, name]) => putProfile(db, userId, fields(name))));

    expect(answers.map(({ name }) => name)).toEqual(["A1", "A2", "B1", "A3"]);
    expect((await getProfile(db, a))?.name).toBe("A3");
    expect((await getProfile(db, b))?.name).toBe("B1");
    // A2 and B1 went together after A1, and A3 after them: B's row is not of A's last statement.
    const writers = await writerOf([a, b]);
    expect(writers.get(a)).not.toBe(writers.get(b));
  });

  it("fail one write alone for a value the database refuses; the others of its statement are written", async () => {
    const people = Array.from({ length: 4 }, () => `refused-${randomUUID()}`);
    // The API refuses a NUL with a 400 before any write; the database refuses it too.
    const written = [
      fields("first"),
      fields("good"),
      { ...fields("bad"), name: "bad\u0000name" },
      fields("also good"),
    ];
    const settled = await Promise.allSettled(people.map((userId, i) => putProfile(db, userId, written[i]!)));

    expect(settled.map(({ status }) => status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(isRefusedValue((settled[2] as PromiseRejectedResult).reason)).toBe(true);
    expect(await getProfile(db, people[2]!)).toBeNull();
    expect((await getProfile(db, people[1]!))?.name).toBe("good");
    expect((await getProfile(db, people[3]!))?.name).toBe("also good");
  });

  it("wait with a write whose row is locked only until the lock timeout, then are written one by one", async () => {
    // A lock timeout of 0.5 s: the open transaction below holds back every snapshot's xmin (the ledger's event feed in other tests) for about a second, not five.
    const quick = createDatabase({ connectionString: inject("databaseUrl"), statementTimeoutMs: 1_000 });
    try {
      const [, a, b] = await withThirdRowLocked("locked", async ([first, a, b]) => {
        let bSettled = false;
        const firstWrite = putProfile(quick, first, fields("first"));
        const aWrite = putProfile(quick, a, fields("A"));
        const bWrite = putProfile(quick, b, fields("B")).finally(() => (bSettled = true));
        expect((await firstWrite).name).toBe("first");
        // Their statement waits for B's row and fails at the lock timeout; A is then written alone at once.
        expect((await aWrite).name).toBe("A");
        expect(bSettled).toBe(false);
        // B alone waits for its row again, and fails alone at the lock timeout.
        await expect(bWrite).rejects.toSatisfy(isDatabaseUnavailable);
      });
      expect((await getProfile(db, a))?.name).toBe("A");
      expect((await getProfile(db, b))?.name).toBe("B before");
    } finally {
      await quick.$disconnect();
    }
  });

  it("fail together when their statement fails for the database, and write nothing", async () => {
    const [, a, b] = await withThirdRowLocked("outage", async ([first, a, b], session) => {
      const firstWrite = putProfile(db, first, fields("first"));
      // A's and B's writes wait for the first one's statement, then go together and wait for B's row.
      const together = [putProfile(db, a, fields("A")), putProfile(db, b, fields("B"))].map((write) =>
        write.then(
          () => "written",
          (error: unknown) => error,
        ),
      );
      expect((await firstWrite).name).toBe("first");
      await untilBlockedBy(session);
      await client.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))",
        [(session as pg.Client & { processID: number }).processID],
      );
      const outcomes = await Promise.all(together);
      expect(outcomes.map((outcome) => isDatabaseUnavailable(outcome))).toEqual([true, true]);
    });
    expect(await getProfile(db, a)).toBeNull();
    expect((await getProfile(db, b))?.name).toBe("B before");
  });

  it("in a caller's transaction, write in that transaction alone", async () => {
    const userId = `in-tx-${randomUUID()}`;
    await expect(
      inTransaction(db, async (tx) => {
        await putProfile(tx, userId, fields("rolled back"));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await getProfile(db, userId)).toBeNull();
  });
});
