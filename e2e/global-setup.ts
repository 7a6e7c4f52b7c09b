import { TEST_CLUSTER } from "../scripts/database.ts";
import { createMigratedDatabase } from "../test/migrated-database.ts";
import { startProductionWeb } from "../test/production-web.ts";

/** A fresh database and the production build of the web app; the tests read E2E_BASE_URL (and E2E_DATABASE_URL to start servers of their own). */
export default async function globalSetup() {
  const database = await createMigratedDatabase("e2e", TEST_CLUSTER);

  const web = await startProductionWeb(database.url);
  process.env.E2E_BASE_URL = web.url;
  process.env.E2E_DATABASE_URL = database.url;

  return async () => {
    await web.stop();
    await database.drop();
  };
}
