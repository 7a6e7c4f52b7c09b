import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export type Database = InstanceType<typeof PrismaClient>;

export interface DatabaseOptions {
  connectionString: string;
  /** Connections in the pool. Postgres allows 100 by default and both services share it. */
  maxConnections?: number;
}

/**
 * A Prisma client over node-postgres. Connecting gives up after 2 s so that an
 * unreachable database becomes a quick 503 instead of a hung request.
 * Every statement runs as a named prepared statement (see `statementName`).
 * Call `$disconnect()` to close the pool.
 */
export function createDatabase({ connectionString, maxConnections = 10 }: DatabaseOptions): Database {
  const adapter = new PrismaPg(
    {
      connectionString,
      max: maxConnections,
      connectionTimeoutMillis: 2_000,
      idleTimeoutMillis: 30_000,
      // A connection whose peer vanished (failover, a dropped network) errors out instead of waiting forever.
      keepAlive: true,
    },
    { statementNameGenerator: ({ sql }) => statementName(sql) },
  );
  return new PrismaClient({ adapter });
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
 * transaction mode (PgBouncer) they fail.
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

/** True when the database answers a trivial query. */
export async function isDatabaseReachable(db: Database): Promise<boolean> {
  try {
    await db.$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}
