/**
 * Once per test run: a real PostgreSQL (DATABASE_URL's server, else the
 * embedded one under .data/test-postgres, apart from `npm start`'s) and a fresh
 * migrated database for this run, dropped at the end.
 */
import type { TestProject } from "vitest/node";
import "./provided-context.ts";
import { TEST_CLUSTER } from "../scripts/database.ts";
import { createMigratedDatabase } from "./migrated-database.ts";

export default async function setup(project: TestProject) {
  const database = await createMigratedDatabase("test_run", TEST_CLUSTER);
  project.provide("adminUrl", database.adminUrl);
  project.provide("databaseUrl", database.url);
  return () => database.drop();
}
