/**
 * The migration hold_expiry_sweep_by_snapshot tells of the holds the sweep
 * before it missed (expired, never resolved, never told), and of no other.
 */
import { randomUUID } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { findRepoRoot, migrateDatabase, migrationsDirectory } from "@app/db";
import { createScratchDatabase, type ScratchDatabase } from "../../../test/scratch-database.ts";

const MIGRATION = "20261201060000_hold_expiry_sweep_by_snapshot";
const directory = migrationsDirectory(findRepoRoot());

let scratch: ScratchDatabase;
let before: string;
let sql: pg.Client;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  // The migrations up to the one before it.
  before = await mkdtemp(path.join(tmpdir(), "migrations-before-"));
  await cp(directory, before, { recursive: true });
  await rm(path.join(before, MIGRATION), { recursive: true });
  await migrateDatabase(scratch.url, before);
  sql = new pg.Client({ connectionString: scratch.url });
  await sql.connect();
});

afterAll(async () => {
  await sql.end();
  await scratch.drop();
  await rm(before, { recursive: true, force: true });
});

/** A hold of 1 between two accounts, written as a ledger would, that expires `expiresIn` from now. */
async function hold(expiresIn: string): Promise<string> {
  const id = randomUUID();
  const [a, b] = [randomUUID(), randomUUID()];
  await sql.query("BEGIN");
  await sql.query(
    "INSERT INTO ledger.accounts (id, name, type, currency) VALUES ($1, 'a', 'asset', 'EUR'), ($2, 'b', 'income', 'EUR')",
    [a, b],
  );
  await sql.query(
    `INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date, hold_expires_at)
     VALUES ($1::uuid, 'backfill-test', $1::text, repeat('0', 64), '2026-01-01', now() + $2::interval)`,
    [id, expiresIn],
  );
  for (const [position, [account, amount]] of [
    [a, 1],
    [b, -1],
  ].entries()) {
    await sql.query(
      `INSERT INTO ledger.hold_entries (id, hold_id, account_id, currency, amount, expires_at, position)
       SELECT gen_random_uuid(), t.id, $2, 'EUR', $3, t.hold_expires_at, $4 FROM ledger.transactions t WHERE t.id = $1`,
      [id, account, amount, position],
    );
  }
  await sql.query("COMMIT");
  return id;
}

it("writes hold.expired for each hold that expired unresolved and was never told, once", async () => {
  // A sweep from before any hold: this one expired since it, and it tells of it.
  await sql.query("UPDATE ledger.hold_expiry_sweeps SET swept_to = now() - interval '1 hour'");
  const told = await hold("-1 minute");
  await sql.query("SELECT ledger.record_expired_holds()");
  // Committed expired after a sweep passed its expiry (its transaction waited): the sweep before the
  // migration looks only past swept_to, and never tells of it.
  const missed = await hold("-1 minute");
  const open = await hold("1 hour");
  await sql.query("SELECT ledger.record_expired_holds()");
  expect(await eventTypes([told, missed, open])).toEqual({
    [told]: ["hold.created", "hold.expired"],
    [missed]: ["hold.created"],
    [open]: ["hold.created"],
  });

  expect(await migrateDatabase(scratch.url, directory)).toEqual([MIGRATION]);
  await sql.query("SELECT ledger.record_expired_holds()");

  expect(await eventTypes([told, missed, open])).toEqual({
    [told]: ["hold.created", "hold.expired"],
    [missed]: ["hold.created", "hold.expired"],
    [open]: ["hold.created"],
  });
  const { rows } = await sql.query<{ created_at: Date; hold_expires_at: Date }>(
    `SELECT e.created_at, t.hold_expires_at FROM ledger.events e JOIN ledger.transactions t ON t.id = e.resource_id
      WHERE e.type = 'hold.expired' AND e.resource_id = $1`,
    [missed],
  );
  expect(rows.map((row) => row.created_at)).toEqual([rows[0]!.hold_expires_at]);
});

async function eventTypes(holds: string[]): Promise<Record<string, string[]>> {
  const { rows } = await sql.query<{ id: string; types: string[] }>(
    `SELECT resource_id::text AS id, array_agg(type ORDER BY seq) AS types FROM ledger.events
      WHERE resource_id = ANY($1::uuid[]) GROUP BY resource_id`,
    [holds],
  );
  return Object.fromEntries(rows.map((row) => [row.id, row.types]));
}
