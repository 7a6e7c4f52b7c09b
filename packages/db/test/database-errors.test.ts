/**
 * The classifier that decides 503 against 500, on the errors Prisma's pg
 * adapter and node-postgres really raise: each fault is caused for real
 * against this run's PostgreSQL (or a port nobody listens on, or a proxy that
 * stops passing bytes) and the error the client threw is classified. Each
 * fault a statement meets is caused four times: through Prisma, through
 * queryRows (the ledger's reads), in a transaction of inTransaction (the
 * resume's writes) and on the pipelined connection (the ledger's posts).
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../../../test/free-port.ts";
import { adminQuery } from "../../../test/postgres-admin.ts";
import { startTcpProxy } from "../../../test/tcp-proxy.ts";
import {
  createDatabase,
  databaseErrorCode,
  inTransaction,
  isConstraintViolation,
  isDatabaseUnavailable,
  pipelinedQueries,
  queryRows,
  type Database,
} from "../src/index.ts";

const opened: Database[] = [];
const open = (options: Parameters<typeof createDatabase>[0]) => {
  const db = createDatabase(options);
  opened.push(db);
  return db;
};

/** The error `work` fails with (the test fails if it succeeds). */
async function failure(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** The SQLSTATE or code the error carries somewhere, for the test's own message. */
const describeError = (error: unknown) =>
  String((error as Error).message)
    .split("\n")
    .filter(Boolean)
    .at(-1);

let db: Database;
let admin: pg.Client;

beforeAll(async () => {
  db = open({ connectionString: inject("databaseUrl"), poolSize: 2, statementTimeoutMs: 300 });
  admin = new pg.Client({ connectionString: inject("databaseUrl") });
  await admin.connect();
});

afterAll(async () => {
  await admin.end();
  await Promise.all(opened.map((d) => d.$disconnect()));
});

/** One statement, through Prisma or around it. */
type Query = (db: Database, sql: string, ...values: unknown[]) => Promise<unknown>;
/** The ways through the pool. */
const POOL_PATHS: [string, Query][] = [
  ["Prisma", (db, sql, ...values) => db.$queryRawUnsafe(sql, ...values)],
  ["queryRows", (db, sql, ...values) => queryRows(db, sql, ...values)],
  ["inTransaction", (db, sql, ...values) => inTransaction(db, (tx) => tx.query(sql, ...values))],
];
const QUERY_PATHS: [string, Query][] = [
  ...POOL_PATHS,
  ["pipelinedQueries", (db, sql, ...values) => pipelinedQueries(db)!.query(sql, ...values)],
];

describe.each(QUERY_PATHS)("isDatabaseUnavailable, on real failures (%s)", (_, query) => {
  it("a server nobody listens on (ECONNREFUSED)", async () => {
    const nobody = open({ connectionString: `postgresql://postgres:x@127.0.0.1:${await freePort()}/app` });
    const error = await failure(query(nobody, "SELECT 1"));
    expect(isDatabaseUnavailable(error), describeError(error)).toBe(true);
  });

  it("a Unix-domain socket with no server behind it (ENOENT: the server removes its socket when it stops)", async () => {
    const socketDirectory = await mkdtemp(path.join(tmpdir(), "no-server-"));
    try {
      const nobody = open({
        connectionString: `postgresql://postgres:x@localhost:5432/app?host=${encodeURIComponent(socketDirectory)}`,
      });
      const error = await failure(query(nobody, "SELECT 1"));
      expect(isDatabaseUnavailable(error), describeError(error)).toBe(true);
    } finally {
      await rm(socketDirectory, { recursive: true, force: true });
    }
  });

  it("a server that accepts the connection and never answers (connect timeout)", async () => {
    const accepted = new Set<net.Socket>();
    const silent = net.createServer((socket) => accepted.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const hung = open({ connectionString: `postgresql://postgres:x@127.0.0.1:${port}/app` });
    const started = Date.now();
    const error = await failure(query(hung, "SELECT 1"));
    // The connect timeout and the hang watch answer in about 2 s; the rest is room for a busy machine.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(isDatabaseUnavailable(error), describeError(error)).toBe(true);
    for (const socket of accepted) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it("a server that stops answering mid-session: the hang watch closes the connection within seconds", async () => {
    const { hostname, port } = new URL(inject("databaseUrl"));
    const proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    const through = open({ connectionString: proxy.via(inject("databaseUrl")), statementTimeoutMs: 60_000 });
    await query(through, "SELECT 1");
    proxy.freeze();
    const started = Date.now();
    const error = await failure(query(through, "SELECT 1"));
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(isDatabaseUnavailable(error), describeError(error)).toBe(true);
    await proxy.close();
  });

  it("a server slow to take new connections: the hang watch does not count a probe still connecting as a hang", async () => {
    const { hostname, port } = new URL(inject("databaseUrl"));
    const proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    // Slower than the probe's second, within the connect timeout (2 s).
    proxy.slowNewConnections(1_250);
    const through = open({ connectionString: proxy.via(inject("databaseUrl")), statementTimeoutMs: 60_000 });
    // The pool's first connection is made; the hang watch's probe connects beside it, as slowly,
    // while this statement runs.
    await expect(query(through, "SELECT pg_sleep(3)::text")).resolves.toBeDefined();
    // Cuts the pool's idle connection: it leaves the pool, and the process goes on.
    await proxy.close();
  }, 20_000);

  it("a statement past the statement timeout (57014)", async () => {
    const error = await failure(query(db, "SELECT pg_sleep(2)::text"));
    expect(describeError(error)).toMatch(/statement timeout/);
    expect(isDatabaseUnavailable(error), describeError(error)).toBe(true);
  });

  it("a lock wait past the lock timeout (55P03)", async () => {
    const key = Math.floor(Math.random() * 1e9);
    await admin.query("SELECT pg_advisory_lock($1)", [key]);
    try {
      const error = await failure(query(db, "SELECT pg_advisory_lock($1::bigint)::text", key));
      expect(describeError(error)).toMatch(/lock timeout/);
      expect(isDatabaseUnavailable(error), describeError(error)).toBe(true);
    } finally {
      await admin.query("SELECT pg_advisory_unlock($1)", [key]);
    }
  });

  it("a session ended by the administrator (57P01)", async () => {
    const marker = `terminate-me-${randomUUID()}`;
    const waiting = failure(
      query(open({ connectionString: inject("databaseUrl") }), `SELECT pg_sleep(5)::text, '${marker}'`),
    );
    // Until the new pool's connection shows up running the statement (at most 4 s).
    for (const deadline = Date.now() + 4_000; Date.now() < deadline;) {
      const { rowCount } = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()",
        [`%${marker}%`],
      );
      if (rowCount) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const error = await waiting;
    expect(describeError(error)).toMatch(/administrator command/);
    expect(isDatabaseUnavailable(error), describeError(error)).toBe(true);
  });

  it("a role out of connections (53300)", async () => {
    const role = `full_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    await adminQuery(inject("adminUrl"), `CREATE ROLE ${role} LOGIN PASSWORD 'pw' CONNECTION LIMIT 0`);
    try {
      const url = new URL(inject("databaseUrl"));
      url.username = role;
      url.password = "pw";
      const error = await failure(query(open({ connectionString: url.toString() }), "SELECT 1"));
      expect(describeError(error)).toMatch(/TooManyConnections|too many connections/);
      expect(isDatabaseUnavailable(error), describeError(error)).toBe(true);
    } finally {
      await adminQuery(inject("adminUrl"), `DROP ROLE IF EXISTS ${role}`);
    }
  });

  it("is false for a query that fails on its merits: syntax, division by zero, bad value, unknown table", async () => {
    const merits = await Promise.all([
      failure(query(db, "SELEC 1")),
      failure(query(db, "SELECT 1/0")),
      failure(query(db, "SELECT 'x'::int")),
      failure(query(db, "SELECT * FROM no_such_table")),
    ]);
    for (const error of merits) expect(isDatabaseUnavailable(error), describeError(error)).toBe(false);
    expect(merits.map(databaseErrorCode)).toEqual(["42601", "22012", "22P02", "42P01"]);
  });

  it("names the constraint a write broke (the ledger's 422s and reversals read it)", async () => {
    const table = `t_${randomUUID().replaceAll("-", "")}`;
    await admin.query(`CREATE TABLE ${table} (id int CONSTRAINT ${table}_key UNIQUE)`);
    try {
      await query(db, `INSERT INTO ${table} VALUES (1)`);
      const error = await failure(query(db, `INSERT INTO ${table} VALUES (1)`));
      expect(databaseErrorCode(error)).toBe("23505");
      expect(isConstraintViolation(error, `${table}_key`)).toBe(true);
      expect(isDatabaseUnavailable(error)).toBe(false);
    } finally {
      await admin.query(`DROP TABLE ${table}`);
    }
  });
});

describe.each(POOL_PATHS)("isDatabaseUnavailable, on a full pool (%s)", (_, query) => {
  it("no free connection in the pool in time, for a query and for a transaction (P2028)", async () => {
    const small = open({ connectionString: inject("databaseUrl"), poolSize: 1, statementTimeoutMs: 10_000 });
    const holding = small.$transaction(async (tx) => tx.$queryRaw`SELECT 1 FROM pg_sleep(3)`, {
      timeout: 8_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [statement, transaction] = await Promise.all([
      failure(query(small, "SELECT 1")),
      // A transaction that may wait less than the pool would: Prisma's own "unable to start" (P2028).
      // (A batch of one statement runs without a transaction: two.)
      failure(small.$transaction([small.$queryRaw`SELECT 1`, small.$queryRaw`SELECT 2`], { maxWait: 200 })),
    ]);
    expect(isDatabaseUnavailable(statement), describeError(statement)).toBe(true);
    expect((transaction as { code?: string }).code).toBe("P2028");
    expect(isDatabaseUnavailable(transaction), describeError(transaction)).toBe(true);
    await holding;
  });
});

describe("isDatabaseUnavailable, beside any query", () => {
  it("is false for a client that dropped its own connection mid-body (ECONNRESET outside any query)", async () => {
    const aborted = new Promise<unknown>((resolve) => {
      const server = http.createServer(async (req) => {
        try {
          for await (const chunk of req) void chunk;
        } catch (error) {
          resolve(error);
        }
        server.close();
      });
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        const socket = net.connect(port, "127.0.0.1", () => {
          socket.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{");
          setTimeout(() => socket.destroy(), 50);
        });
      });
    });
    const error = await aborted;
    expect((error as { code?: string }).code).toBe("ECONNRESET");
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
