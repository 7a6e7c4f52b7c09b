/**
 * The database's pipelined connection (pipelinedQueries), against this run's
 * PostgreSQL: statements sent while others run, on one server process, each
 * its own transaction. Its faults (a lost, hung or refused connection) are
 * caused in database-errors.test.ts with every other way of querying.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startTcpProxy } from "../../../test/tcp-proxy.ts";
import {
  createDatabase,
  databaseErrorCode,
  isDatabaseUnavailable,
  pipelinedQueries,
  queryRows,
  type Database,
} from "../src/index.ts";

let admin: pg.Client;
const opened: Database[] = [];
const open = (options: Partial<Parameters<typeof createDatabase>[0]> = {}) => {
  const db = createDatabase({ connectionString: inject("databaseUrl"), ...options });
  opened.push(db);
  return db;
};

beforeAll(async () => {
  admin = new pg.Client({ connectionString: inject("databaseUrl") });
  await admin.connect();
});

afterAll(async () => {
  await admin.end();
  await Promise.all(opened.map((db) => db.$disconnect()));
});

/** Resolves once `pid`'s backend is waiting for a lock (at most 5 s). */
async function waitingForLock(pid: number): Promise<void> {
  for (const deadline = Date.now() + 5_000; Date.now() < deadline;) {
    const { rows } = await admin.query("SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", [pid]);
    if (rows[0]?.wait_event_type === "Lock") return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`backend ${pid} never waited for the lock`);
}

describe("pipelinedQueries", () => {
  it("answers statements sent together, each with its own rows, from one server process", async () => {
    const pipelined = pipelinedQueries(open())!;
    const rows = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        pipelined.query<{ pid: number; n: number }>("SELECT pg_backend_pid() AS pid, $1::int AS n", n),
      ),
    );
    expect(rows.map(([row]) => row!.n)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(rows.map(([row]) => row!.pid)).size).toBe(1);
  });

  it("sends a statement while the one before it still runs", async () => {
    const { hostname, port } = new URL(inject("databaseUrl"));
    const proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    try {
      const pipelined = pipelinedQueries(open({ connectionString: proxy.via(inject("databaseUrl")) }))!;
      const [{ pid }] = (await pipelined.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")) as [
        { pid: number },
      ];
      const lock = Math.floor(Math.random() * 1e9);
      await admin.query("SELECT pg_advisory_lock($1)", [lock]);
      const blocked = pipelined.query("SELECT pg_advisory_xact_lock($1::bigint)::text", lock);
      await waitingForLock(pid);
      // The proxy's first connection is the pipelined one (the hang watch's probe comes later).
      const sent = () => proxy.bytesToTarget()[0]!;
      const before = sent();
      const next = pipelined.query<{ n: number }>("SELECT 2 AS n");
      // Its bytes reach the server while the first statement still waits for the lock.
      for (const deadline = Date.now() + 2_000; sent() === before && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(sent()).toBeGreaterThan(before);
      await admin.query("SELECT pg_advisory_unlock($1)", [lock]);
      await expect(blocked).resolves.toEqual([{ pg_advisory_xact_lock: "" }]);
      await expect(next).resolves.toEqual([{ n: 2 }]);
    } finally {
      await proxy.close();
    }
  });

  it("fails a statement alone: the ones sent with it, before and after, are answered and committed", async () => {
    const db = open();
    const pipelined = pipelinedQueries(db)!;
    const table = `pipelined_${randomUUID().replaceAll("-", "")}`;
    await queryRows(db, `CREATE TABLE ${table} (n int)`);
    try {
      const [before, failing, after] = await Promise.allSettled([
        pipelined.query(`INSERT INTO ${table} VALUES (1)`),
        pipelined.query(`INSERT INTO ${table} VALUES (1 / 0)`),
        pipelined.query(`INSERT INTO ${table} VALUES (3)`),
      ]);
      expect(before.status).toBe("fulfilled");
      expect(after.status).toBe("fulfilled");
      expect(databaseErrorCode((failing as PromiseRejectedResult).reason)).toBe("22012");
      const rows = await queryRows<{ n: number }>(db, `SELECT n FROM ${table} ORDER BY n`);
      expect(rows).toEqual([{ n: 1 }, { n: 3 }]);
    } finally {
      await queryRows(db, `DROP TABLE ${table}`);
    }
  });

  it("keeps its connection after a statement's own error: the next runs on the same server process", async () => {
    const pipelined = pipelinedQueries(open({ statementTimeoutMs: 300 }))!;
    const pidOf = async () =>
      (await pipelined.query<{ pid: number }>("SELECT pg_backend_pid() AS pid"))[0]!.pid;
    const pid = await pidOf();
    for (const [sql, code] of [
      ["SELECT 1 / 0", "22012"],
      ["SELECT pg_sleep(1)::text", "57014"],
    ] as const) {
      const error = await pipelined.query(sql).catch((failure: unknown) => failure);
      expect(databaseErrorCode(error)).toBe(code);
      expect(await pidOf()).toBe(pid);
    }
  });

  it("parses a statement again behind a first use whose parse failed, instead of failing it too", async () => {
    const db = open({ statementTimeoutMs: 400 });
    const pipelined = pipelinedQueries(db)!;
    const table = `pipelined_parse_${randomUUID().replaceAll("-", "")}`;
    await queryRows(db, `CREATE TABLE ${table} (n int)`);
    try {
      // Parsing a statement on the table takes a lock on it: held here, the first parse times out (55P03).
      await admin.query("BEGIN");
      await admin.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      const sql = `SELECT count(*)::int AS n FROM ${table}`;
      const [first, ...behind] = Array.from({ length: 3 }, () => pipelined.query<{ n: number }>(sql));
      const firstFailure = await first!.catch((error: unknown) => error);
      await admin.query("COMMIT");
      expect(databaseErrorCode(firstFailure)).toBe("55P03");
      // Written at once behind the failed parse, they would fail with 26000 (no such prepared statement).
      expect(await Promise.all(behind)).toEqual([[{ n: 0 }], [{ n: 0 }]]);
    } finally {
      await admin.query("ROLLBACK").catch(() => {});
      await queryRows(db, `DROP TABLE ${table}`);
    }
  });

  it("reset() fails the statements under way as unavailable, and the next runs on a new server process", async () => {
    const pipelined = pipelinedQueries(open())!;
    const [before] = await pipelined.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const underWay = pipelined.query("SELECT pg_sleep(2)::text");
    await new Promise((resolve) => setTimeout(resolve, 100));
    pipelined.reset();
    const error = await underWay.catch((failure: unknown) => failure);
    expect(isDatabaseUnavailable(error)).toBe(true);
    const [after] = await pipelined.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    expect(after!.pid).not.toBe(before!.pid);
  });

  it("opens a new connection for the next statement after its connection was lost", async () => {
    const pipelined = pipelinedQueries(open())!;
    const [first] = await pipelined.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    await admin.query("SELECT pg_terminate_backend($1)", [first!.pid]);
    // The loss may reach the client with the next statement (which then fails) or before it.
    let second: { pid: number } | undefined;
    for (let attempt = 0; attempt < 2 && !second; attempt++)
      [second] = await pipelined
        .query<{ pid: number }>("SELECT pg_backend_pid() AS pid")
        .catch(() => [undefined]);
    expect(second!.pid).not.toBe(first!.pid);
  });

  it("is null behind a pooler (no prepared statements): the pool serves every statement", () => {
    expect(pipelinedQueries(open({ preparedStatements: false }))).toBeNull();
  });

  it("refuses statements once the database is disconnected", async () => {
    const db = open();
    const pipelined = pipelinedQueries(db)!;
    await pipelined.query("SELECT 1");
    await db.$disconnect();
    await expect(pipelined.query("SELECT 1")).rejects.toThrow(/closed and is not queryable/);
  });
});
