import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { queryRows as query } from "../../../test/postgres-admin.ts";
import { afterEach, describe, expect, it } from "vitest";
import { findRepoRoot, migrateDatabase, migrationsDirectory, readMigrations } from "../src/index.ts";
import { createScratchDatabase, type ScratchDatabase } from "../../../test/scratch-database.ts";

const directory = migrationsDirectory(findRepoRoot());
const scratch: ScratchDatabase[] = [];

async function emptyDatabase(): Promise<string> {
  const db = await createScratchDatabase();
  scratch.push(db);
  return db.url;
}

afterEach(async () => {
  await Promise.all(scratch.splice(0).map((db) => db.drop()));
});

describe("migrateDatabase", () => {
  it("applies every migration to an empty database and records it like prisma migrate deploy", async () => {
    const url = await emptyDatabase();
    const migrations = await readMigrations(directory);
    expect(migrations.length).toBeGreaterThan(0);

    expect(await migrateDatabase(url, directory)).toEqual(migrations.map((m) => m.name));

    const rows = await query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      applied_steps_count: number;
    }>(
      url,
      "SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(rows.map((r) => [r.migration_name, r.checksum, r.applied_steps_count])).toEqual(
      migrations.map((m) => [m.name, m.checksum, 1]),
    );
    expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
    const tables = await query<{ table_name: string }>(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema IN ('resume', 'ledger') ORDER BY 1",
    );
    expect(tables.map((t) => t.table_name)).toContain("entries");
  });

  it("is a no-op the second time", async () => {
    const url = await emptyDatabase();
    await migrateDatabase(url, directory);
    expect(await migrateDatabase(url, directory)).toEqual([]);
    const [count] = await query<{ n: string }>(url, "SELECT count(*) AS n FROM _prisma_migrations");
    expect(Number(count?.n)).toBe((await readMigrations(directory)).length);
  });

  it("refuses to run when an applied migration was edited", async () => {
    const url = await emptyDatabase();
    const copy = await mkdtemp(path.join(tmpdir(), "migrations-"));
    await cp(directory, copy, { recursive: true });
    await migrateDatabase(url, copy);

    const [first] = await readMigrations(copy);
    const file = path.join(copy, first!.name, "migration.sql");
    await writeFile(file, `${await readFile(file, "utf8")}\n-- edited\n`);

    await expect(migrateDatabase(url, copy)).rejects.toThrow(/was edited after it was applied/);
  });

  it("rolls back a failing migration and records nothing", async () => {
    const url = await emptyDatabase();
    const copy = await mkdtemp(path.join(tmpdir(), "migrations-"));
    await cp(directory, copy, { recursive: true });
    await migrateDatabase(url, copy);
    const broken = path.join(copy, "99999999999999_broken");
    await cp(path.join(copy, (await readMigrations(copy))[0]!.name), broken, { recursive: true });
    await writeFile(
      path.join(broken, "migration.sql"),
      "CREATE TABLE half_done (id int);\nSELECT no_such_function();\n",
    );

    await expect(migrateDatabase(url, copy)).rejects.toThrow(
      /99999999999999_broken failed and was rolled back/,
    );
    expect(
      await query(url, "SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'"),
    ).toEqual([]);
    expect(
      await query(url, "SELECT 1 FROM _prisma_migrations WHERE migration_name = '99999999999999_broken'"),
    ).toEqual([]);
  });

  it("lets only one of two simultaneous runners apply each migration", async () => {
    const url = await emptyDatabase();
    const [a, b] = await Promise.all([migrateDatabase(url, directory), migrateDatabase(url, directory)]);
    const names = (await readMigrations(directory)).map((m) => m.name);

    expect([...a, ...b].sort()).toEqual(names);
    const rows = await query<{ migration_name: string }>(
      url,
      "SELECT migration_name FROM _prisma_migrations",
    );
    expect(rows.map((r) => r.migration_name).sort()).toEqual(names);
  });
});
