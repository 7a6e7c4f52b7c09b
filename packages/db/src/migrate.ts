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

/**
 * Applies pending migrations, each in its own transaction, and records them in
 * `_prisma_migrations` the way `prisma migrate deploy` does. Refuses to run when
 * an applied migration's file changed or an earlier attempt left one unfinished.
 * Returns the names of the migrations it applied.
 */
export async function migrateDatabase(connectionString: string, directory: string): Promise<string[]> {
  const migrations = await readMigrations(directory);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK_KEY]);
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
    for (const m of pending) {
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new MigrationError(
          `migration ${m.name} failed and was rolled back: ${(error as Error).message}`,
        );
      }
    }
    return pending.map((m) => m.name);
  } finally {
    await client.end();
  }
}
