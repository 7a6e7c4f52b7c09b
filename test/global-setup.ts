/**
 * Once per test run: a real PostgreSQL (DATABASE_URL's server, else the
 * embedded one under .data/test-postgres, apart from `npm start`'s) and a fresh
 * migrated database for this run, dropped at the end.
 */
import path from "node:path";
import type { TestProject } from "vitest/node";
import "./provided-context.ts";
import { startEmbeddedPostgres } from "@app/db";
import { env } from "../scripts/env.ts";
import { migrate } from "../scripts/database.ts";
import { adminQuery, withDatabaseName } from "./postgres-admin.ts";

export default async function setup(project: TestProject) {
  const server = env.DATABASE_URL
    ? { adminUrl: env.DATABASE_URL, stop: async () => {} }
    : await startEmbeddedPostgres({
        directory: path.join(env.DATA_DIR, "test-postgres"),
        database: "postgres",
      });

  const name = `test_run_${process.pid}_${Date.now()}`;
  await adminQuery(server.adminUrl, `CREATE DATABASE ${name}`);
  const databaseUrl = withDatabaseName(server.adminUrl, name);
  await migrate(databaseUrl);

  project.provide("adminUrl", server.adminUrl);
  project.provide("databaseUrl", databaseUrl);

  return async () => {
    await adminQuery(server.adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await server.stop();
  };
}
