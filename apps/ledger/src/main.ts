import { createDatabase, databaseOptionsOf } from "@app/db";
import { LEDGER_ACTIONS } from "@app/ledger";
import { closeServer, shutdownSignal } from "@app/rest";
import { ensureDevelopmentCredentials, loadCredentials } from "@app/sigv4";
import { readLedgerEnv } from "./env.ts";
import { createLedgerServer } from "./server.ts";

const env = readLedgerEnv();
if (!env.LEDGER_CREDENTIALS_FILE) await ensureDevelopmentCredentials(env.credentialsFile, LEDGER_ACTIONS);
const credentials = await loadCredentials(env.credentialsFile, LEDGER_ACTIONS);
const db = createDatabase(databaseOptionsOf(env));
const server = createLedgerServer({ db, credentials, region: env.LEDGER_REGION });

server.listen(env.LEDGER_PORT, env.HOST, () => {
  console.log(
    `ledger listening on http://localhost:${env.LEDGER_PORT} (${credentials.size} access key(s), region ${env.LEDGER_REGION})`,
  );
});

await shutdownSignal();
const SHUTDOWN_GRACE_MS = 5_000;
// Whatever hangs past the grace period does not keep the process alive.
setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + 3_000).unref();
await closeServer(server, SHUTDOWN_GRACE_MS);
await db.$disconnect();
process.exit(0);
