import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { DatabaseQueryError } from "./database-errors.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { closeSocket, watchForHang, type HangWatch } from "./hang-watch.ts";
import { createPipelinedConnection, type PipelinedConnection } from "./pipelined-connection.ts";

export type Database = InstanceType<typeof PrismaClient>;

export interface DatabaseOptions {
  connectionString: string;
  /** Connections in this process's pool (`DATABASE_POOL_SIZE`). */
  poolSize?: number;
  /** The longest a statement may run, in PostgreSQL (`DB_STATEMENT_TIMEOUT_MS`). */
  statementTimeoutMs?: number;
  /**
   * Named prepared statements (`DATABASE_PREPARED_STATEMENTS`). Off, every
   * statement is unnamed, as PgBouncer in transaction mode needs.
   */
  preparedStatements?: boolean;
  /**
   * What the server calls this process's connections (`application_name`,
   * in pg_stat_activity): the ledger's expired-holds sweep looks for the
   * ledger's own transactions under way by it. One in DATABASE_URL wins.
   */
  applicationName?: string;
}

/** The longest a request waits to connect, or for a free connection of the pool. */
const CONNECT_TIMEOUT_MS = 2_000;
/** Idle connections send TCP keep-alive probes after this long, so a vanished peer errors out. */
const KEEP_ALIVE_DELAY_MS = 5_000;
const PIPELINE_TIMEOUT_ROOM_MS = 5_000;
/** How long the hang watch's probe has to be answered, straight to PostgreSQL. */
const PROBE_TIMEOUT_MS = 1_000;

/**
 * A Prisma client over a node-postgres pool in which every wait is bounded:
 *
 * - connecting and waiting for a free connection: CONNECT_TIMEOUT_MS;
 * - a statement: `statementTimeoutMs` (PostgreSQL's statement_timeout, sent
 *   when the session starts), a lock wait half of it, a transaction left idle
 *   twice it (idle_in_transaction_session_timeout);
 * - a server that stops answering altogether (frozen, failing over, packets
 *   dropped): the hang watch (hang-watch.ts) closes the pool's connections
 *   within about two seconds, so the queries on them fail instead of waiting
 *   (behind a pooler, a statement's timeout later: its probe may wait in the
 *   pooler's queue that long);
 * - a peer that vanished: TCP keep-alive.
 *
 * Every such failure is one that isDatabaseUnavailable recognises (a 503).
 * Call `$disconnect()` to close the pool.
 */
export function createDatabase({
  connectionString,
  poolSize = 10,
  statementTimeoutMs = 5_000,
  preparedStatements = true,
  applicationName,
}: DatabaseOptions): Database {
  const connection: pg.ClientConfig = {
    connectionString,
    ...(applicationName ? { application_name: applicationName } : {}),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEP_ALIVE_DELAY_MS,
    statement_timeout: statementTimeoutMs,
    lock_timeout: Math.ceil(statementTimeoutMs / 2),
    idle_in_transaction_session_timeout: statementTimeoutMs * 2,
  };
  const pool = new pg.Pool({ ...connection, max: poolSize, idleTimeoutMillis: 30_000 });
  // An idle connection that the server or the hang watch closes leaves the pool by itself; without
  // a listener, its error would end the process (Prisma's adapter adds one only once it connects,
  // and queryRows may use the pool before that).
  pool.on("error", () => {});
  // Behind a pooler (no prepared statements) the probe waits in its queue like any client, at most
  // until a statement ends somewhere: a server silent for longer than any statement may run is gone.
  const watch = watchForHang(
    pool,
    connectionString,
    preparedStatements ? PROBE_TIMEOUT_MS : statementTimeoutMs + PROBE_TIMEOUT_MS,
  );
  // Behind a pooler in transaction mode (no prepared statements) a pipeline's statements could
  // reach different server connections: statements then go through the pool one at a time.
  const pipelined = preparedStatements
    ? createPipelinedConnection(
        // A statement never answered closes the connection, a backstop behind the hang watch: twice
        // the statement timeout (the one written before it may run that long first), and room enough
        // that the server's own statement timeout always answers first.
        { ...connection, query_timeout: statementTimeoutMs * 2 + PIPELINE_TIMEOUT_ROOM_MS },
        (client, sql, values) => rowsOf(client, true, sql, values),
        watch.watch,
      )
    : null;
  const adapter = new PrismaPg(pool, {
    disposeExternalPool: true,
    ...(preparedStatements
      ? { statementNameGenerator: ({ sql }: { sql: string }) => statementName(sql) }
      : {}),
  });
  const db = new PrismaClient({
    adapter,
    // A transaction waits for a connection as long as a query does, and lasts no longer than a statement may.
    transactionOptions: { maxWait: CONNECT_TIMEOUT_MS, timeout: statementTimeoutMs },
  });
  // Prisma closes the pool only once it has run a statement itself, and most never ask it (queryRows, inTransaction).
  const disconnectPrisma = db.$disconnect.bind(db);
  db.$disconnect = async () => {
    // The pipelined connection first, while the hang watch still runs.
    await pipelined?.end();
    try {
      await disconnectPrisma();
    } finally {
      if (!pool.ending) await pool.end();
    }
  };
  pools.set(db, {
    pool,
    pipelined,
    preparedStatements,
    transactionTimeoutMs: statementTimeoutMs * 2,
    answersWithin: watch.answersWithin,
  });
  return db;
}

interface OwnPool {
  pool: pg.Pool;
  /** The connection of pipelinedQueries; null behind a pooler (no prepared statements). */
  pipelined: PipelinedConnection | null;
  preparedStatements: boolean;
  /**
   * How long an inTransaction transaction may last unless it says otherwise: twice a statement's
   * timeout, so that a statement's own timeout answers first (57014, on a connection that stays usable).
   */
  transactionTimeoutMs: number;
  /** The hang watch's readiness ask, on a connection of its own: never waiting for a free one of the pool. */
  answersWithin: HangWatch["answersWithin"];
}

/** The pool under each client this module made (poolStatsOf, queryRows, inTransaction). */
const pools = new WeakMap<Database, OwnPool>();

/** The pool's connections: in use, idle, and the requests waiting for one (for metrics). */
export function poolStatsOf(db: Database): { inUse: number; idle: number; waiting: number } {
  const pool = pools.get(db)?.pool;
  if (!pool) return { inUse: 0, idle: 0, waiting: 0 };
  return { inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/**
 * The rows of one statement, sent on `db`'s own pool (its connections, timeouts
 * and hang watch) without passing through Prisma; a failure is a
 * DatabaseQueryError, which the error classifier reads as it reads Prisma's.
 * Every statement of both services goes so: through Prisma's raw-query path a
 * balance read cost the ledger half again its CPU, and every post queued behind
 * a posting statement waited for it too (docs/benchmarks.md, "Posting",
 * "Balances"). Values map as node-postgres maps them (arrays to arrays, json
 * columns parsed, bigint columns as strings). In a transaction (`db` is an
 * inTransaction's), on its connection. A statement that changes rows says how
 * many with `RETURNING true`.
 */
export async function queryRows<T>(db: Queryable, sql: string, ...values: unknown[]): Promise<T[]> {
  const own = pools.get(db as Database);
  if (own) return rowsOf<T>(own.pool, own.preparedStatements, sql, values);
  if ("query" in db) return db.query<T>(sql, ...values);
  throw new Error("queryRows needs a database made by createDatabase, or an inTransaction's transaction");
}

/** True for a database (its pool), false for a transaction on one of its connections. */
export function isDatabase(db: Queryable): db is Database {
  return pools.has(db as Database);
}

/**
 * Statements on the database's one pipelined connection (pipelined-connection.ts):
 * each is sent at once, even while the ones before it run, and runs as they
 * end, on one server process. Null when the database has none (behind a
 * pooler in transaction mode): then statements go through the pool.
 */
export function pipelinedQueries(db: Database): PipelinedConnection | null {
  return pools.get(db)?.pipelined ?? null;
}

/** The statements of one transaction, on one connection of the pool (inTransaction). */
export interface PoolTransaction {
  /** The rows of one statement, mapped and failing as queryRows's. */
  query<T>(sql: string, ...values: unknown[]): Promise<T[]>;
}

/** Where a statement goes: the database's own pool, or one transaction on it. */
export type Queryable = Database | PoolTransaction;

/**
 * Runs `work` in a transaction on `db`'s own pool, without Prisma: BEGIN,
 * its statements, COMMIT, or ROLLBACK when it throws (what it threw is
 * thrown on). Through Prisma, a resume entry's create (lock, insert) cost
 * the web app about 0.4 ms more CPU (docs/benchmarks.md, "Resume reads and
 * writes"). The waits are the pool's, as for queryRows: 2 s for a
 * connection, each statement its statement_timeout; and the whole
 * transaction lasts no longer than twice that (or `timeoutMs`), as Prisma's
 * had a bound: past it its connection is closed, which ends the transaction
 * and frees its locks, and the statement under way fails as a lost
 * connection does (a 503). A connection lost is closed, not handed out
 * again.
 */
export async function inTransaction<T>(
  db: Database,
  work: (tx: PoolTransaction) => Promise<T>,
  { timeoutMs }: { timeoutMs?: number } = {},
): Promise<T> {
  const own = pools.get(db);
  if (!own) throw new Error("inTransaction needs a database made by createDatabase");
  let client: pg.PoolClient;
  try {
    client = await own.pool.connect();
  } catch (error) {
    throw new DatabaseQueryError(error);
  }
  const tx: PoolTransaction = {
    query: (sql, ...values) => rowsOf(client, own.preparedStatements, sql, values),
  };
  let broken: Error | undefined;
  // A connection lost while it is out of the pool says so here (unheard, the error would end the process); its next statement fails.
  const onLost = (error: Error) => (broken = error);
  client.on("error", onLost);
  const deadline = setTimeout(() => closeSocket(client), timeoutMs ?? own.transactionTimeoutMs);
  try {
    await transactionControl(client, "BEGIN");
    const result = await work(tx);
    await transactionControl(client, "COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((failure: Error) => (broken = failure));
    throw error;
  } finally {
    clearTimeout(deadline);
    client.off("error", onLost);
    client.release(broken);
  }
}

/**
 * BEGIN or COMMIT, as a simple query (nothing to prepare). PostgreSQL
 * answers the COMMIT of a transaction that one of its statements broke with
 * "ROLLBACK" and no error: work that caught a failed statement and went on
 * must not read as written.
 */
async function transactionControl(client: pg.PoolClient, command: "BEGIN" | "COMMIT"): Promise<void> {
  let answered: string;
  try {
    answered = (await client.query(command)).command;
  } catch (error) {
    throw new DatabaseQueryError(error);
  }
  if (answered !== command)
    throw new Error(`the transaction was rolled back: ${command} answered ${answered}`);
}

async function rowsOf<T>(
  on: pg.Pool | pg.PoolClient | pg.Client,
  preparedStatements: boolean,
  sql: string,
  values: unknown[],
): Promise<T[]> {
  try {
    const name = preparedStatements ? statementName(sql) : "";
    return (await on.query({ ...(name ? { name } : {}), text: sql, values })).rows as T[];
  } catch (error) {
    throw new DatabaseQueryError(error);
  }
}

const statementNames = new Map<string, string>();
const REMEMBERED_STATEMENTS = 1_000;

/**
 * Marks a statement whose best plan depends on its values (a scan of a whole
 * table, where a date decides how much of it counts): it is planned anew for
 * every call instead of running a cached generic plan.
 */
export const PLAN_EACH_CALL = "/* plan each call */";

/**
 * The name of a statement's text, the same on every connection. A named
 * statement is parsed once per pooled connection and, after a few runs,
 * PostgreSQL keeps a generic plan for it (re-planning every call cost the
 * whole-resume statement about a third of its time here). Every SQL text of
 * this project is a constant (values are always parameters), so each
 * connection holds a fixed, small set of them. A statement marked
 * PLAN_EACH_CALL gets no name ("" is node-postgres's unnamed statement).
 * Named statements need a session per client: behind a pooler in
 * transaction mode (PgBouncer) turn them off (`preparedStatements: false`).
 */
export function statementName(sql: string): string {
  if (sql.includes(PLAN_EACH_CALL)) return "";
  let name = statementNames.get(sql);
  if (!name) {
    // Past the bound, a text is no constant of this project: leave it unprepared
    // rather than let every connection collect prepared statements.
    if (statementNames.size >= REMEMBERED_STATEMENTS) return "";
    name = `s${createHash("sha256").update(sql).digest("hex").slice(0, 32)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** How long a readiness check waits for the database to answer. */
const READINESS_TIMEOUT_MS = 1_000;

/**
 * True when the database answers a trivial query within a second (readiness),
 * asked on a connection of the hang watch's: a pool whose every connection is
 * busy is not a database that is unreachable.
 */
export async function isDatabaseReachable(db: Database): Promise<boolean> {
  const own = pools.get(db);
  if (!own) throw new Error("isDatabaseReachable needs a database made by createDatabase");
  return own.answersWithin(READINESS_TIMEOUT_MS);
}
