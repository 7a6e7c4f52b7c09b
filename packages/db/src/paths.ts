import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root: the folder holding turbo.json, found upwards from this file. */
export function findRepoRoot(start = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  while (!existsSync(path.join(dir, "turbo.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no turbo.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const migrationsDirectory = (repoRoot: string) => path.join(repoRoot, "prisma", "migrations");

/** The local state folder (embedded PostgreSQL, the local issuer's key): `DATA_DIR`, else `.data`, from the repository. */
export const dataDirectory = (configured: string | undefined) =>
  path.resolve(findRepoRoot(), configured ?? ".data");
