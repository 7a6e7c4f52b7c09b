import path from "node:path";
import { startEmbeddedPostgres } from "@app/db";
import { env } from "../scripts/env.ts";
import { migrate } from "../scripts/database.ts";
import { startWeb, stopProcess, waitForHealthy } from "../scripts/processes.ts";
import { freePort } from "../test/free-port.ts";
import { adminQuery, withDatabaseName } from "../test/postgres-admin.ts";

/** A fresh database and `next start` of the production build; the tests read E2E_BASE_URL. */
export default async function globalSetup() {
  const server = env.DATABASE_URL
    ? { adminUrl: env.DATABASE_URL, stop: async () => {} }
    : await startEmbeddedPostgres({
        directory: path.join(env.DATA_DIR, "test-postgres"),
        database: "postgres",
      });
  const name = `e2e_${process.pid}_${Date.now()}`;
  await adminQuery(server.adminUrl, `CREATE DATABASE ${name}`);
  const databaseUrl = withDatabaseName(server.adminUrl, name);
  await migrate(databaseUrl);

  const port = await freePort();
  const web = startWeb(
    { DATABASE_URL: databaseUrl, DATA_DIR: env.DATA_DIR, HOST: "127.0.0.1", PORT: port, LEDGER_PORT: 0 },
    "quiet",
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealthy(`${baseUrl}/healthz`);
  process.env.E2E_BASE_URL = baseUrl;

  return async () => {
    await stopProcess(web);
    await adminQuery(server.adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await server.stop();
  };
}
