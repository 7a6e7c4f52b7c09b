import { z } from "zod";
import type { DatabaseOptions } from "./client.ts";

/** The database settings both services read from their environment (docs/operations.md, "Configuration"). */
export const databaseSettings = {
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "a postgresql:// URL" }),
  /** Connections per process; docs/operations.md, "Pool size", gives the rule for N instances against max_connections. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1_000).default(10),
  /** Named prepared statements; "false" behind PgBouncer in transaction mode. */
  DATABASE_PREPARED_STATEMENTS: z
    .enum(["true", "false"])
    .default("true")
    .transform((value) => value === "true"),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
};

type DatabaseSettings = z.output<z.ZodObject<typeof databaseSettings>>;

export function databaseOptionsOf(env: DatabaseSettings, applicationName: string): DatabaseOptions {
  return {
    applicationName,
    connectionString: env.DATABASE_URL,
    poolSize: env.DATABASE_POOL_SIZE,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
  };
}
