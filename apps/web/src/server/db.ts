import { createDatabase, type Database } from "@app/db";
import { webEnv } from "~/env";

let db: Database | undefined;

/** The web app's one database client (one pool per server process). */
export function database(): Database {
  db ??= createDatabase({ connectionString: webEnv().DATABASE_URL, maxConnections: 20 });
  return db;
}

/** Closes the pool, if one was opened. */
export async function disconnectDatabase(): Promise<void> {
  await db?.$disconnect();
}
