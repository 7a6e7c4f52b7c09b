/**
 * Once per test run: a real PostgreSQL (DATABASE_URL's server, else the
 * embedded one under .data/test-postgres, apart from `npm start`'s) and a fresh
 * migrated database for this run, dropped at the end. With
 * TEST_THROUGH_PGBOUNCER set, the tests reach that database through a real
 * PgBouncer in transaction mode (test/pgbouncer.ts).
 */
import type { TestProject } from "vitest/node";
import "./provided-context.ts";
import { TEST_CLUSTER } from "../scripts/database.ts";
import { env } from "../scripts/env.ts";
import { createMigratedDatabase } from "./migrated-database.ts";
import { startPgBouncer } from "./pgbouncer.ts";

export default async function setup(project: TestProject) {
  const database = await createMigratedDatabase("test_run", TEST_CLUSTER);
  const pgbouncer = env.TEST_THROUGH_PGBOUNCER ? await startPgBouncer(database.url) : null;
  project.provide("adminUrl", database.adminUrl);
  project.provide("databaseUrl", pgbouncer?.url ?? database.url);
  project.provide("preparedStatements", !pgbouncer);
  return async () => {
    await pgbouncer?.stop();
    await database.drop();
  };
}
