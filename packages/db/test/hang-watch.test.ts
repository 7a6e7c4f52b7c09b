/**
 * The hang watch (hang-watch.ts) closes a pool's connections when the server
 * says nothing at all, and only then: a pool whose every connection runs a
 * long statement, straight to PostgreSQL or behind a PgBouncer whose server
 * connections are all taken, is busy, not hung. Readiness asks on the watch's
 * own connection. Real servers: the run's PostgreSQL, a real PgBouncer, and a
 * PostgreSQL of the test's own frozen with SIGSTOP.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { startEmbeddedPostgres } from "../src/embedded-postgres.ts";
import { createDatabase, isDatabaseReachable, isDatabaseUnavailable, queryRows } from "../src/index.ts";
import { freePort } from "../../../test/free-port.ts";
import { freezePostgres, signal } from "../../../test/freeze-postgres.ts";
import { pgbouncerBinary, startPgBouncer } from "../../../test/pgbouncer.ts";

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** `n` statements that each sleep `seconds` on the server, all at once. */
const sleeping = (db: ReturnType<typeof createDatabase>, n: number, seconds: number) =>
  Promise.allSettled(Array.from({ length: n }, () => queryRows(db, `SELECT pg_sleep(${seconds})`)));

describe("a busy pool straight to PostgreSQL", () => {
  it("is ready while every connection of its pool runs a long statement", async () => {
    const db = createDatabase({ connectionString: inject("databaseUrl"), poolSize: 2 });
    cleanups.push(() => db.$disconnect());
    const busy = sleeping(db, 2, 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await isDatabaseReachable(db)).toBe(true);
    expect((await busy).map((s) => s.status)).toEqual(["fulfilled", "fulfilled"]);
  });
});

describe.skipIf(!pgbouncerBinary)("behind PgBouncer in transaction mode (skipped without pgbouncer)", () => {
  it("lets statements run whose wait for a server connection is longer than a second, and is ready meanwhile", async () => {
    // Four server connections for six statements of 2.5 s: two wait 2.5 s in PgBouncer's queue, and the
    // watch's probe with them. Before, the probe's second ran out and every connection was closed.
    const bouncer = await startPgBouncer(inject("databaseUrl"), { poolSize: 4 });
    cleanups.push(() => bouncer.stop());
    const db = createDatabase({ connectionString: bouncer.url, poolSize: 8, preparedStatements: false });
    cleanups.push(() => db.$disconnect());
    const busy = sleeping(db, 6, 2.5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Its readiness ask waits in PgBouncer's queue too: that is no unreachable database.
    expect(await isDatabaseReachable(db)).toBe(true);
    const outcomes = await busy;
    expect(outcomes.map((s) => (s.status === "rejected" ? String(s.reason) : s.status))).toEqual(
      Array(6).fill("fulfilled"),
    );
  });

  it("still finds a server that stopped answering, once a statement's timeout has passed", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "hang-watch-"));
    const postgres = await startEmbeddedPostgres({
      directory: path.join(root, "postgres"),
      preferredPort: await freePort(),
      database: "app",
    });
    cleanups.push(async () => {
      await postgres.stop();
      await rm(root, { recursive: true, force: true });
    });
    const bouncer = await startPgBouncer(postgres.url, { poolSize: 4 });
    cleanups.push(() => bouncer.stop());
    const db = createDatabase({
      connectionString: bouncer.url,
      poolSize: 4,
      preparedStatements: false,
      statementTimeoutMs: 1_000,
    });
    cleanups.push(() => db.$disconnect());
    await queryRows(db, "SELECT 1");

    const frozen = await freezePostgres(postgres.directory);
    try {
      const started = Date.now();
      const failure = await queryRows(db, "SELECT 1").then(
        () => null,
        (error: unknown) => error,
      );
      // The statement timeout (1 s) and the probe's second, counted from a check each second.
      expect(failure !== null && isDatabaseUnavailable(failure)).toBe(true);
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(await isDatabaseReachable(db)).toBe(false);
    } finally {
      signal(frozen, "SIGCONT");
    }
    await expect(queryRows(db, "SELECT 1 AS one")).resolves.toEqual([{ one: 1 }]);
  });
});
