import { createDatabase } from "@app/db";
import { closeOnSignals } from "@app/rest";
import { ensureDevelopmentCredentials, loadCredentials } from "@app/sigv4";
import { readLedgerEnv } from "./env.ts";
import { createLedgerServer } from "./server.ts";

const env = readLedgerEnv();
if (!env.LEDGER_CREDENTIALS_FILE) await ensureDevelopmentCredentials(env.credentialsFile);
const credentials = await loadCredentials(env.credentialsFile);
const db = createDatabase({ connectionString: env.DATABASE_URL, maxConnections: 20 });
const server = createLedgerServer({ db, credentials, region: env.LEDGER_REGION });

server.listen(env.LEDGER_PORT, env.HOST, () => {
  console.log(
    `ledger listening on http://localhost:${env.LEDGER_PORT} (${credentials.size} access key(s), region ${env.LEDGER_REGION})`,
  );
});

closeOnSignals(server, () => db.$disconnect());
