import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

/** The advisory-lock key `prisma migrate deploy` takes, so the two never run at once. */
const PRISMA_MIGRATE_LOCK_KEY = 72707369;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

export async function readMigrations(directory: string): Promise<Migration[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(directory, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

/** How long a migration waits for a lock the running services hold before it gives up (rolled back). */
const MIGRATION_LOCK_TIMEOUT = "10s";

/**
 * Applies pending migrations, each in its own transaction, and records them in
 * `_prisma_migrations` the way `prisma migrate deploy` does. Refuses to run when
 * an applied migration's file changed or an earlier attempt left one unfinished.
 * Returns the names of the migrations it applied.
 *
 * Everything it holds is held by a transaction, never by the session: through
 * PgBouncer in transaction mode a session's advisory lock stays on the server
 * connection PgBouncer keeps, and the next run waits for it for ever. Each
 * migration's transaction takes the lock `prisma migrate deploy` takes, then
 * looks whether another runner applied it meanwhile. It runs without the
 * role's statement timeout (a migration may take long) but gives up on a lock
 * the services hold for MIGRATION_LOCK_TIMEOUT, rather than queue every
 * statement of theirs behind its wait.
 */
export async function migrateDatabase(connectionString: string, directory: string): Promise<string[]> {
  const migrations = await readMigrations(directory);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    // Made and read under the lock too: two runners' CREATE TABLE IF NOT EXISTS at once collide.
    await client.query("BEGIN");
    await waitForMigrationLock(client);
    await client.query(`
      CREATE TABLE IF NOT EXISTS _prisma_migrations (
        id                  VARCHAR(36) PRIMARY KEY NOT NULL,
        checksum            VARCHAR(64) NOT NULL,
        finished_at         TIMESTAMPTZ,
        migration_name      VARCHAR(255) NOT NULL,
        logs                TEXT,
        rolled_back_at      TIMESTAMPTZ,
        started_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
        applied_steps_count INTEGER NOT NULL DEFAULT 0
      )`);
    const { rows } = await client.query<AppliedRow>(
      "SELECT migration_name, checksum, finished_at FROM _prisma_migrations WHERE rolled_back_at IS NULL",
    );
    await client.query("COMMIT");
    const applied = new Map(rows.map((r) => [r.migration_name, r]));

    for (const m of migrations) {
      const row = applied.get(m.name);
      if (row && row.finished_at === null) {
        throw new MigrationError(
          `migration ${m.name} started earlier and did not finish; resolve it by hand`,
        );
      }
      if (row && row.checksum !== m.checksum) {
        throw new MigrationError(
          `migration ${m.name} was edited after it was applied (checksum ${row.checksum} in the database, ` +
            `${m.checksum} on disk); add a new migration instead`,
        );
      }
    }

    const pending = migrations.filter((m) => !applied.has(m.name));
    const appliedHere: string[] = [];
    for (const m of pending) {
      await client.query("BEGIN");
      try {
        await waitForMigrationLock(client);
        await client.query(`SET LOCAL lock_timeout = '${MIGRATION_LOCK_TIMEOUT}'`);
        const { rowCount } = await client.query(
          "SELECT 1 FROM _prisma_migrations WHERE migration_name = $1 AND rolled_back_at IS NULL",
          [m.name],
        );
        if (rowCount) {
          // Applied by another runner while this one waited for the lock.
          await client.query("COMMIT");
          continue;
        }
        await client.query(m.sql);
        await client.query(
          `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
        appliedHere.push(m.name);
      } catch (error) {
        await client.query("ROLLBACK");
        const lockWait = (error as { code?: string }).code === "55P03";
        throw new MigrationError(
          `migration ${m.name} failed and was rolled back: ${(error as Error).message}` +
            (lockWait
              ? `; a lock it needs was held for ${MIGRATION_LOCK_TIMEOUT} (by the running services, or another session): run it again`
              : ""),
        );
      }
    }
    return appliedHere;
  } finally {
    await client.end();
  }
}

/**
 * The transaction's share of the migration lock, waited for as long as another
 * runner applies a migration, whatever the role's timeouts (set on it behind
 * PgBouncer); the transaction runs without a statement timeout from then on.
 */
async function waitForMigrationLock(client: pg.Client): Promise<void> {
  await client.query("SET LOCAL statement_timeout = 0");
  await client.query("SET LOCAL lock_timeout = 0");
  await client.query("SELECT pg_advisory_xact_lock($1)", [PRISMA_MIGRATE_LOCK_KEY]);
}
