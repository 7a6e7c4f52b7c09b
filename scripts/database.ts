import { writeFile } from "node:fs/promises";
import path from "node:path";
import { migrateDatabase, migrationsDirectory, startEmbeddedPostgres, type RunningPostgres } from "@app/db";
import { env, repoRoot } from "./env.ts";

/**
 * The database the product runs on: `DATABASE_URL` when set (nothing is
 * started), else the embedded PostgreSQL under `.data/postgres`, whose
 * connection string is written to `.data/database-url` for psql.
 */
export async function openDatabase(): Promise<Pick<RunningPostgres, "url" | "stop">> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, stop: async () => {} };
  const server = await startEmbeddedPostgres({
    directory: path.join(env.DATA_DIR, "postgres"),
    preferredPort: env.EMBEDDED_POSTGRES_PORT,
  });
  await writeFile(path.join(env.DATA_DIR, "database-url"), `${server.url}\n`, { mode: 0o600 });
  return server;
}

/** Applies pending migrations; returns the names applied. */
export function migrate(url: string): Promise<string[]> {
  return migrateDatabase(url, migrationsDirectory(repoRoot));
}
