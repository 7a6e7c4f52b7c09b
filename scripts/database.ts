import { writeFile } from "node:fs/promises";
import path from "node:path";
import { migrateDatabase, migrationsDirectory } from "@app/db";
import {
  EmbeddedPostgresError,
  startEmbeddedPostgres,
  type RunningPostgres,
} from "@app/db/embedded-postgres";
import { env, repoRoot } from "./env.ts";

/**
 * The database the product runs on: `DATABASE_URL` when set (nothing is
 * started), else the embedded PostgreSQL under `.data/postgres`, whose
 * connection string is written to `.data/database-url` for psql. When the
 * embedded server cannot run here, the command ends with the reason.
 */
export async function openDatabase(): Promise<
  Pick<RunningPostgres, "url" | "stop"> & { directory?: string }
> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, stop: async () => {} };
  const server = await startEmbeddedCluster("postgres", { preferredPort: env.EMBEDDED_POSTGRES_PORT }).catch(
    exitIfEmbeddedPostgresFailed,
  );
  await writeFile(path.join(env.DATA_DIR, "database-url"), `${server.url}\n`, { mode: 0o600 });
  return server;
}

/** The embedded cluster of `npm test` (the test runs' databases are made in it), apart from `npm start`'s. */
export const TEST_CLUSTER = "test-postgres";

/** The embedded cluster `.data/<name>` (npm start's, the tests', the benchmarks'), started or shared. */
export function startEmbeddedCluster(
  name: string,
  options: { preferredPort?: number; database?: string } = {},
): Promise<RunningPostgres> {
  return startEmbeddedPostgres({
    directory: path.join(env.DATA_DIR, name),
    stateDirectory: env.EMBEDDED_POSTGRES_STATE_DIR,
    ...options,
  });
}

/**
 * Ends a command whose embedded PostgreSQL cannot run here with the one
 * sentence that says why and what to do; any other error goes on up.
 */
export function exitIfEmbeddedPostgresFailed(error: unknown): never {
  if (!(error instanceof EmbeddedPostgresError)) throw error;
  console.error(`\n✗ ${error.message}`);
  process.exit(1);
}

/** Applies pending migrations; returns the names applied. */
export function migrate(url: string): Promise<string[]> {
  return migrateDatabase(url, migrationsDirectory(repoRoot));
}
