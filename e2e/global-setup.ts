import { env } from "../scripts/env.ts";
import { startWeb, stopProcess, waitForHealthy } from "../scripts/processes.ts";
import { freePort } from "../test/free-port.ts";
import { TEST_CLUSTER } from "../scripts/database.ts";
import { createMigratedDatabase } from "../test/migrated-database.ts";

/** A fresh database and the production build of the web app; the tests read E2E_BASE_URL (and E2E_DATABASE_URL to start servers of their own). */
export default async function globalSetup() {
  const database = await createMigratedDatabase("e2e", TEST_CLUSTER);

  const port = await freePort();
  const web = startWeb(
    {
      DATABASE_URL: database.url,
      DATA_DIR: env.DATA_DIR,
      HOST: "127.0.0.1",
      PORT: port,
      LEDGER_PORT: 0,
      SHUTDOWN_DRAIN_MS: 0,
    },
    "quiet",
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealthy(`${baseUrl}/healthz`);
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_DATABASE_URL = database.url;

  return async () => {
    await stopProcess(web);
    await database.drop();
  };
}
