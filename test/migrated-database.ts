import { env } from "../scripts/env.ts";
import { migrate, startEmbeddedCluster } from "../scripts/database.ts";
import { adminQuery, withDatabaseName } from "./postgres-admin.ts";

export interface MigratedDatabase {
  /** `<prefix>_<pid>_<time>`: the pid tells whether its creator still runs. */
  name: string;
  url: string;
  /** The server's maintenance database, for creating and dropping others. */
  adminUrl: string;
  /** Drops the database and stops the embedded server if this started it. */
  drop(): Promise<void>;
}

/**
 * A new, migrated database for a test run, an end-to-end run or a benchmark:
 * on DATABASE_URL's server when set, else on the embedded cluster
 * `.data/<cluster>` (apart from `npm start`'s).
 */
export async function createMigratedDatabase(prefix: string, cluster: string): Promise<MigratedDatabase> {
  const server = env.DATABASE_URL
    ? { adminUrl: env.DATABASE_URL, stop: async () => {} }
    : await startEmbeddedCluster(cluster, { database: "postgres" });
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  await adminQuery(server.adminUrl, `CREATE DATABASE ${name}`);
  const url = withDatabaseName(server.adminUrl, name);
  await migrate(url);
  return {
    name,
    url,
    adminUrl: server.adminUrl,
    drop: async () => {
      await adminQuery(server.adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await server.stop();
    },
  };
}
