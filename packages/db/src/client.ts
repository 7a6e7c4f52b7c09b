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
 * Call `$disconnect()` to close the pool.
 */
export function createDatabase({ connectionString, maxConnections = 10 }: DatabaseOptions): Database {
  const adapter = new PrismaPg({
    connectionString,
    max: maxConnections,
    connectionTimeoutMillis: 2_000,
    idleTimeoutMillis: 30_000,
  });
  return new PrismaClient({ adapter });
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
