/**
 * inTransaction against this run's PostgreSQL: what its statements write is
 * there after it returns, nothing of it after it throws, and its connection
 * goes back to the pool either way, or is closed when the server ended it.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  createDatabase,
  inTransaction,
  isDatabaseUnavailable,
  poolStatsOf,
  queryRows,
  type Database,
} from "../src/index.ts";

const table = `t_${randomUUID().replaceAll("-", "")}`;
let db: Database;
let admin: pg.Client;

beforeAll(async () => {
  // One connection: a transaction that kept its connection would leave the next waiting until it fails.
  db = createDatabase({ connectionString: inject("databaseUrl"), poolSize: 1 });
  admin = new pg.Client({ connectionString: inject("databaseUrl") });
  await admin.connect();
  await admin.query(`CREATE TABLE ${table} (id int PRIMARY KEY, note text)`);
});

afterAll(async () => {
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.end();
  await db.$disconnect();
});

const ids = async () =>
  (await admin.query(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id as number);

describe("inTransaction", () => {
  it("commits what its statements wrote and answers what the work returned", async () => {
    const answer = await inTransaction(db, async (tx) => {
      await tx.query(`INSERT INTO ${table} VALUES (1, 'one')`);
      return tx.query<{ note: string }>(`INSERT INTO ${table} VALUES ($1, $2) RETURNING note`, 2, "two");
    });
    expect(answer).toEqual([{ note: "two" }]);
    expect(await ids()).toEqual([1, 2]);
  });

  it("runs its statements in one transaction: another session sees none of them before the commit", async () => {
    await inTransaction(db, async (tx) => {
      await tx.query(`INSERT INTO ${table} VALUES (3, 'three')`);
      expect(await ids()).toEqual([1, 2]);
    });
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it("rolls back when the work throws, and throws what it threw", async () => {
    class Refused extends Error {}
    const refused = new Refused("no");
    await expect(
      inTransaction(db, async (tx) => {
        await tx.query(`INSERT INTO ${table} VALUES (4, 'four')`);
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it("rolls back a failed statement's transaction, and its connection serves the next one", async () => {
    const failed = inTransaction(db, async (tx) => {
      await tx.query(`INSERT INTO ${table} VALUES (5, 'five')`);
      await tx.query(`INSERT INTO ${table} VALUES (1, 'again')`);
    });
    await expect(failed).rejects.toMatchObject({ name: "DatabaseQueryError", originalCode: "23505" });
    expect(await ids()).toEqual([1, 2, 3]);
    expect(poolStatsOf(db)).toMatchObject({ inUse: 0, idle: 1 });
    expect(await inTransaction(db, (tx) => tx.query<{ n: number }>("SELECT 1 AS n"))).toEqual([{ n: 1 }]);
  });

  it("closes a connection the server ended mid-transaction instead of handing it out again", async () => {
    const failed = inTransaction(db, async (tx) => {
      const [backend] = await tx.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      await admin.query("SELECT pg_terminate_backend($1)", [backend!.pid]);
      // The loss arrives while no statement runs: an error the client emits, which nobody awaits.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.query("SELECT 1");
    });
    const error = await failed.catch((e: unknown) => e);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(poolStatsOf(db)).toMatchObject({ inUse: 0, idle: 0 });
    expect(await queryRows(db, "SELECT 1 AS n")).toEqual([{ n: 1 }]);
  });

  it("fails when PostgreSQL answers its COMMIT with ROLLBACK: work that caught a failed statement wrote nothing", async () => {
    const swallowed = inTransaction(db, async (tx) => {
      await tx.query(`INSERT INTO ${table} VALUES (6, 'six')`);
      await tx.query(`INSERT INTO ${table} VALUES (1, 'again')`).catch(() => undefined);
    });
    await expect(swallowed).rejects.toThrow(/rolled back: COMMIT answered ROLLBACK/);
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it("lasts no longer than twice a statement may: past it the connection closes, its lock is freed, nothing is written", async () => {
    const quick = createDatabase({ connectionString: inject("databaseUrl"), statementTimeoutMs: 300 });
    const key = Math.floor(Math.random() * 1e9);
    try {
      const outlived = inTransaction(quick, async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock($1::bigint)::text", key);
        await tx.query(`INSERT INTO ${table} VALUES (7, 'seven')`);
        // 800 ms in all, past its bound (twice the statement's 300 ms), never idle as long as the server allows (600 ms).
        await new Promise((resolve) => setTimeout(resolve, 400));
        await tx.query("SELECT 1");
        await new Promise((resolve) => setTimeout(resolve, 400));
        await tx.query("SELECT 1");
      });
      const error = await outlived.catch((e: unknown) => e);
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      expect(await ids()).toEqual([1, 2, 3]);
      const { rows } = await admin.query("SELECT pg_try_advisory_lock($1) AS free", [key]);
      expect(rows[0].free).toBe(true);
      await admin.query("SELECT pg_advisory_unlock($1)", [key]);
      // With a bound of its own, the same wait commits.
      await inTransaction(
        quick,
        async (tx) => {
          await new Promise((resolve) => setTimeout(resolve, 400));
          await tx.query("SELECT 1");
          await new Promise((resolve) => setTimeout(resolve, 400));
          await tx.query(`INSERT INTO ${table} VALUES (8, 'eight')`);
        },
        { timeoutMs: 5_000 },
      );
      expect(await ids()).toEqual([1, 2, 3, 8]);
    } finally {
      await quick.$disconnect();
    }
  });
});
