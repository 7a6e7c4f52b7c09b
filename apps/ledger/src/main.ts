import { createDatabase } from "@app/db";
import { readLedgerEnv } from "./env.ts";
import { createLedgerServer } from "./server.ts";

const env = readLedgerEnv();
const db = createDatabase({ connectionString: env.DATABASE_URL, maxConnections: 20 });
const server = createLedgerServer({ db });

server.listen(env.LEDGER_PORT, env.HOST, () => {
  console.log(`ledger listening on http://localhost:${env.LEDGER_PORT}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void db.$disconnect().finally(() => process.exit(0));
  });
}
