import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { adminQuery, withDatabaseName } from "./postgres-admin.ts";

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** An empty database of its own, for tests that watch migrations from nothing. */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const adminUrl = inject("adminUrl");
  const name = `test_scratch_${randomBytes(6).toString("hex")}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  return {
    url: withDatabaseName(adminUrl, name),
    drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
