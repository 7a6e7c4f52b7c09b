/** `npm run ledger:verify`: checks the ledger's invariants in DATABASE_URL (or the embedded database). */
import { createDatabase } from "@app/db";
import { verifyLedger } from "@app/ledger";
import { openDatabase } from "./database.ts";

const database = await openDatabase();
const db = createDatabase({ connectionString: database.url, poolSize: 1 });
try {
  const violations = await verifyLedger(db);
  for (const v of violations.slice(0, 50)) console.log(`${v.rule}\t${v.subject}\t${v.detail}`);
  if (violations.length > 50) console.log(`… and ${violations.length - 50} more`);
  console.log(
    violations.length === 0
      ? "ledger ok: every transaction and currency sums to zero"
      : `${violations.length} violation(s)`,
  );
  process.exitCode = violations.length === 0 ? 0 : 1;
} finally {
  await db.$disconnect();
  await database.stop();
}
