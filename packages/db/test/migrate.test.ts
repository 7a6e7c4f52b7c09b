import { cp, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { queryRows as query } from "../../../test/postgres-admin.ts";
import { afterEach, describe, expect, it } from "vitest";
import { findRepoRoot, migrateDatabase, migrationsDirectory, readMigrations } from "../src/index.ts";
import { MigrationError } from "../src/migrate.ts";
import { pgbouncerBinary, startPgBouncer } from "../../../test/pgbouncer.ts";
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

  it.skipIf(!pgbouncerBinary)(
    "runs through PgBouncer in transaction mode again and again: it leaves no lock behind (skipped without pgbouncer)",
    async () => {
      const url = await emptyDatabase();
      const bouncer = await startPgBouncer(url, { poolSize: 2 });
      try {
        const names = (await readMigrations(directory)).map((m) => m.name);
        expect(await migrateDatabase(bouncer.url, directory)).toEqual(names);
        // Before, the first run's session lock stayed on a server connection PgBouncer kept: this one waited for ever.
        const again = migrateDatabase(bouncer.url, directory);
        const waited = new Promise((resolve) =>
          setTimeout(() => resolve("still waiting after 10 s"), 10_000),
        );
        expect(await Promise.race([again, waited])).toEqual([]);
        const locks = await query<{ n: number }>(
          url,
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = 72707369",
        );
        expect(locks).toEqual([{ n: 0 }]);
      } finally {
        await bouncer.stop();
      }
    },
  );

  it("waits for another runner as long as it takes, whatever the role's timeouts (as set behind PgBouncer)", async () => {
    const url = await emptyDatabase();
    const database = new URL(url).pathname.slice(1);
    await query(url, `ALTER DATABASE "${database}" SET statement_timeout = '200ms'`);
    await query(url, `ALTER DATABASE "${database}" SET lock_timeout = '200ms'`);
    // Another runner: the migration lock held for a second.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query("SELECT pg_advisory_xact_lock(72707369)");
      const migrated = migrateDatabase(url, directory);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await other.query("COMMIT");
      expect(await migrated).toEqual((await readMigrations(directory)).map((m) => m.name));
    } finally {
      await other.end();
    }
  });

  it("gives up a migration whose lock another session holds past 10 s, rolled back, saying to run it again", async () => {
    const url = await emptyDatabase();
    const migrations = await mkdtemp(path.join(tmpdir(), "migrations-"));
    await cp(directory, migrations, { recursive: true });
    const waiting = path.join(migrations, "99991231000000_waits_for_a_lock");
    await mkdir(waiting);
    await writeFile(
      path.join(waiting, "migration.sql"),
      "ALTER TABLE resume.profiles ADD COLUMN waited text;",
    );
    const names = (await readMigrations(migrations)).map((m) => m.name);
    expect(await migrateDatabase(url, directory)).toEqual(names.slice(0, -1));

    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE resume.profiles IN ACCESS SHARE MODE");
      const failure = await migrateDatabase(url, migrations).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(MigrationError);
      expect(String(failure)).toMatch(
        /migration 99991231000000_waits_for_a_lock failed and was rolled back: .*lock.*; a lock it needs was held for 10s .*: run it again/,
      );
    } finally {
      await holder.end();
    }
    expect(await migrateDatabase(url, migrations)).toEqual(["99991231000000_waits_for_a_lock"]);
  }, 30_000);
});

/** A new database migrated up to, not including, the migration whose name starts with `stamp`. */
async function databaseBefore(stamp: string): Promise<string> {
  const url = await emptyDatabase();
  const before = await mkdtemp(path.join(tmpdir(), "migrations-"));
  for (const { name } of await readMigrations(directory)) {
    if (name < stamp) await cp(path.join(directory, name), path.join(before, name), { recursive: true });
  }
  await migrateDatabase(url, before);
  return url;
}

describe("migration 20261129020000_urls_without_blanks", () => {
  it("percent-encodes the whitespace of stored links and credential URLs, which the API now refuses", async () => {
    const url = await databaseBefore("20261129020000");
    const links = {
      site: "https://e.x/a b",
      mine: "https://e.x/ä\u00a0\tc\u3000",
      fine: "https://e.x/ok%20",
    };
    await query(
      url,
      `INSERT INTO resume.profiles (user_id, name, links) VALUES ('u1', 'A', $j$${JSON.stringify(links)}$j$)`,
    );
    await query(
      url,
      `INSERT INTO resume.certifications (id, user_id, name, issuing_organization, issue_date, credential_url)
       VALUES (gen_random_uuid(), 'u1', 'C', 'O', '2020-01-01', 'https://e.x/v?id=1 2'),
              (gen_random_uuid(), 'u1', 'D', 'O', '2020-01-01', NULL)`,
    );

    await migrateDatabase(url, directory);
    const [profile] = await query<{ links: Record<string, string> }>(
      url,
      "SELECT links FROM resume.profiles",
    );
    expect(profile!.links).toEqual({
      site: "https://e.x/a%20b",
      mine: "https://e.x/ä%C2%A0%09c%E3%80%80",
      fine: "https://e.x/ok%20",
    });
    const certifications = await query<{ credential_url: string | null }>(
      url,
      "SELECT credential_url FROM resume.certifications ORDER BY name",
    );
    expect(certifications.map((c) => c.credential_url)).toEqual(["https://e.x/v?id=1%202", null]);
    const functions = await query(url, "SELECT 1 FROM pg_proc WHERE proname = 'blanks_percent_encoded'");
    expect(functions).toEqual([]);
  });
});

describe("migration 20261130140000_date_precision", () => {
  it("reads as years the imported entries whose item gave years alone and whose dates are still those", async () => {
    const url = await databaseBefore("20261130140000");
    const kept = (item: object) => `$j$${JSON.stringify({ position: 0, item })}$j$`;
    await query(
      url,
      `INSERT INTO resume.educations (id, user_id, institution, degree, start_date, end_date, json_resume)
       VALUES (gen_random_uuid(), 'u1', 'years', 'BSc', '2008-01-01', '2012-01-01', ${kept({ startDate: "2008", endDate: " 2012" })}),
              (gen_random_uuid(), 'u1', 'a month', 'BSc', '2008-01-01', '2012-06-01', ${kept({ startDate: "2008", endDate: "2012-06" })}),
              (gen_random_uuid(), 'u1', 'changed', 'BSc', '2008-01-01', '2013-01-01', ${kept({ startDate: "2008", endDate: "2012" })}),
              (gen_random_uuid(), 'u1', 'end added', 'BSc', '2008-01-01', '2012-01-01', ${kept({ startDate: "2008" })}),
              (gen_random_uuid(), 'u1', 'typed', 'BSc', '2008-01-01', '2012-01-01', NULL)`,
    );
    await query(
      url,
      `INSERT INTO resume.experiences (id, user_id, organization, title, start_date, json_resume)
       VALUES (gen_random_uuid(), 'u1', 'current', 'Dev', '2014-01-01', ${kept({ startDate: "2014", endDate: "" })})`,
    );
    await query(
      url,
      `INSERT INTO resume.certifications (id, user_id, name, issuing_organization, issue_date, json_resume)
       VALUES (gen_random_uuid(), 'u1', 'years', 'O', '2020-01-01', ${kept({ date: "2020" })})`,
    );
    await query(
      url,
      `INSERT INTO resume.goals (id, user_id, description, category, target_date, json_resume)
       VALUES (gen_random_uuid(), 'u1', 'years', 'career', '2027-01-01', ${kept({ targetDate: "2027" })}),
              (gen_random_uuid(), 'u1', 'undated', 'career', NULL, ${kept({})})`,
    );

    await migrateDatabase(url, directory);
    const read = (sql: string) =>
      query<{ name: string; date_precision: string }>(url, sql).then((rows) =>
        Object.fromEntries(rows.map((row) => [row.name, row.date_precision])),
      );
    expect(await read("SELECT institution AS name, date_precision FROM resume.educations")).toEqual({
      years: "year",
      "a month": "month",
      changed: "month",
      "end added": "month",
      typed: "month",
    });
    expect(await read("SELECT organization AS name, date_precision FROM resume.experiences")).toEqual({
      current: "year",
    });
    expect(await read("SELECT name, date_precision FROM resume.certifications")).toEqual({ years: "year" });
    expect(await read("SELECT description AS name, date_precision FROM resume.goals")).toEqual({
      years: "year",
      undated: "month",
    });
    expect(await query(url, "SELECT 1 FROM pg_proc WHERE proname = 'dated_in_years'")).toEqual([]);
  });
});
