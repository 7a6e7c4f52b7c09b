import { createHash, randomInt } from "node:crypto";
import { isoTimestampSql } from "@app/db";
import pg from "pg";
import { z } from "zod";
import { listCursor } from "../packages/ledger/src/list-cursor.ts";
import { call, ledger, type Ledger } from "./ledger-calls.ts";
import { fmt, percentile, printTable } from "./stats.ts";

/** The kept database the search bench loads once (see BenchEnvironment.startKeptLedger). */
export const SEARCH_DATABASE = "kept_search_1m";

const TRANSACTIONS = 1_000_000;
const LOAD_CHUNK = 100_000;
const COUNTERPARTS = 1_000;
const ROUNDS = 300;
const WARM_UP_ROUNDS = 20;
/** The deep offset page is slow by nature; a fifth of the rounds measure it. */
const OFFSET_EVERY = 5;
const PAGE_SIZE = 50;
const DEEP_PAGE = 9_000;

/**
 * A version-4 UUID made from `text` (its md5 with the version and variant
 * digits set: the API refuses other UUIDs), the same in SQL (uuidSql) and
 * here, so the bench names loaded rows without asking for them.
 */
const uuidOf = (text: string) =>
  createHash("md5")
    .update(text)
    .digest("hex")
    .replace(/^(.{8})(.{4}).(.{3}).(.{3})(.{12})$/, "$1-$2-4$3-8$4-$5");
const uuidSql = (text: string) =>
  `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;
const BIG_ACCOUNT = uuidOf("search-big");
const SMALL_ACCOUNT = uuidOf("search-counter-1");
const transactionId = (g: number) => uuidOf(`search-tx-${g}`);

/**
 * Search and deep pages over 1,000,000 transactions (issue's speed part),
 * each as a ratio to a figure of the same run: a metadata lookup and an
 * account's first page against GET /transactions/{id}, and page 9,000 of the
 * account with 1,000,000 entries by cursor against its page 1 (the offset
 * page 9,000 beside it). Measured in interleaved rounds, one request of each
 * kind per round, sequentially, so drifting load on the machine falls on
 * every kind alike.
 */
export async function benchSearch(ledgerUrl: string, databaseUrl: string) {
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  const client = ledger(ledgerUrl);
  try {
    const loadSeconds = await loadOnce(sql);
    const deepCursor = await cursorBefore(sql, (DEEP_PAGE - 1) * PAGE_SIZE);
    await checkDeepPage(client, deepCursor);

    const entries = `/accounts/${BIG_ACCOUNT}/entries`;
    const measures = {
      byId: () => `/transactions/${transactionId(randomInt(1, TRANSACTIONS + 1))}`,
      metadata: () => `/transactions?metadata%5Border_id%5D=ord-${randomInt(1, TRANSACTIONS + 1)}`,
      bigAccount: () => `/transactions?account_id=${BIG_ACCOUNT}`,
      smallAccount: () => `/transactions?account_id=${SMALL_ACCOUNT}`,
      page1: () => entries,
      cursorPage: () => `${entries}?cursor=${deepCursor}`,
      offsetPage: () => `${entries}?offset=${(DEEP_PAGE - 1) * PAGE_SIZE}`,
    };
    type Measure = keyof typeof measures;
    const ms = Object.fromEntries(Object.keys(measures).map((k) => [k, [] as number[]])) as Record<
      Measure,
      number[]
    >;
    for (let round = -WARM_UP_ROUNDS; round < ROUNDS; round += 1) {
      for (const [name, path] of Object.entries(measures) as [Measure, () => string][]) {
        if (name === "offsetPage" && round % OFFSET_EVERY !== 0) continue;
        const target = path();
        const t0 = performance.now();
        await call(client, target);
        if (round >= 0) ms[name].push(performance.now() - t0);
      }
    }

    const p50 = (name: Measure) => percentile(ms[name], 50);
    const line = (label: string, name: Measure) => [
      label,
      ms[name].length,
      fmt(p50(name)),
      fmt(percentile(ms[name], 99)),
    ];
    printTable(
      `Ledger search and deep pages (${TRANSACTIONS.toLocaleString("en")} transactions, ${loadSeconds === null ? "loaded by an earlier run" : `loaded in ${fmt(loadSeconds, 0)} s`}; sequential, interleaved rounds)`,
      ["request", "runs", "p50 ms", "p99 ms"],
      [
        line("GET /transactions/{id} (random of 1M)", "byId"),
        line("GET /transactions?metadata[order_id]=<random of 1M>", "metadata"),
        line("GET /transactions?account_id=<1M-entry account>, page 1", "bigAccount"),
        line(
          `GET /transactions?account_id=<${TRANSACTIONS / COUNTERPARTS}-entry account>, page 1`,
          "smallAccount",
        ),
        line("GET /accounts/{1M-entry}/entries, page 1", "page1"),
        line(
          `GET /accounts/{1M-entry}/entries, page ${DEEP_PAGE.toLocaleString("en")} by cursor`,
          "cursorPage",
        ),
        line(
          `GET /accounts/{1M-entry}/entries, page ${DEEP_PAGE.toLocaleString("en")} by offset (${((DEEP_PAGE - 1) * PAGE_SIZE).toLocaleString("en")})`,
          "offsetPage",
        ),
      ],
    );
    const ratio = (name: Measure, to: Measure) => fmt(p50(name) / p50(to), 2);
    console.log(
      [
        `metadata lookup / by id (p50) = ${ratio("metadata", "byId")}  (target <= 2)`,
        `account page 1 / by id (p50) = ${ratio("bigAccount", "byId")} on the 1M-entry account, ${ratio("smallAccount", "byId")} on a ${TRANSACTIONS / COUNTERPARTS}-entry one  (target <= 2)`,
        `entries page ${DEEP_PAGE} by cursor / page 1 (p50) = ${ratio("cursorPage", "page1")}  (target <= 1.5; by offset: ${ratio("offsetPage", "page1")})`,
      ].join("\n"),
    );
  } finally {
    client.close();
    await sql.end();
  }
}

/**
 * 1,000,000 transactions, each of two entries: one on the big account, one on
 * one of 1,000 counterparts, with metadata {"order_id": "ord-<n>",
 * "customer_id": "cus-<n mod 10,000>"}, 1 ms apart; in one database
 * transaction, so the big account exists only with all of them. Loaded with
 * triggers off (bulk load: each transaction balanced by construction, checked
 * after); the feed's events of them are not written, as nothing here reads
 * them. Null when an earlier run loaded them; else the seconds it took.
 */
async function loadOnce(sql: pg.Client): Promise<number | null> {
  const { rows } = await sql.query<{ entries: number }>(
    `SELECT (SELECT count(*) FROM ledger.entries WHERE account_id = a.id)::int AS entries
       FROM ledger.accounts a WHERE a.id = $1`,
    [BIG_ACCOUNT],
  );
  if (rows[0]) {
    if (rows[0].entries !== TRANSACTIONS)
      throw new Error(`${SEARCH_DATABASE} holds ${rows[0].entries} entries of the big account: drop it`);
    return null;
  }
  console.log(`(loading ${TRANSACTIONS.toLocaleString("en")} transactions into ${SEARCH_DATABASE}, once)`);
  const started = performance.now();
  await sql.query("BEGIN");
  await sql.query("SET LOCAL session_replication_role = replica");
  await sql.query(
    `INSERT INTO ledger.accounts (id, name, type, currency, metadata)
     SELECT ${uuidSql("'search-counter-' || c")}, 'search counterpart ' || c, 'income'::ledger.account_type, 'USD',
            '{}'::jsonb
       FROM generate_series(1, $1::int) c
     UNION ALL
     SELECT $2::uuid, 'search: the 1M-entry account', 'asset', 'USD', '{"bench": "search-1m"}'`,
    [COUNTERPARTS, BIG_ACCOUNT],
  );
  for (let from = 1; from <= TRANSACTIONS; from += LOAD_CHUNK) {
    const range = [from, Math.min(TRANSACTIONS, from + LOAD_CHUNK - 1)];
    await sql.query(
      `INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date, metadata, created_at)
       SELECT ${uuidSql("'search-tx-' || g")}, 'bench', 'search-' || g, repeat('0', 64), date '2024-01-01' + g / 1000,
              jsonb_build_object('order_id', 'ord-' || g, 'customer_id', 'cus-' || g % 10000),
              timestamptz '2026-01-01 00:00:00+00' + g * interval '1 millisecond'
         FROM generate_series($1::int, $2::int) g`,
      range,
    );
    await sql.query(
      `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position, created_at)
       SELECT ${uuidSql("'search-e-' || g || '-' || side")}, ${uuidSql("'search-tx-' || g")},
              CASE side WHEN 0 THEN $3::uuid ELSE ${uuidSql("'search-counter-' || (g % $4::int + 1)")} END, 'USD',
              CASE side WHEN 0 THEN g % 1000 + 1 ELSE -(g % 1000 + 1) END, date '2024-01-01' + g / 1000, side,
              timestamptz '2026-01-01 00:00:00+00' + g * interval '1 millisecond'
         FROM generate_series($1::int, $2::int) g, (VALUES (0), (1)) s(side)`,
      [...range, BIG_ACCOUNT, COUNTERPARTS],
    );
  }
  const { rows: check } = await sql.query<{ unbalanced: number }>(
    `SELECT count(*)::int AS unbalanced FROM (SELECT transaction_id FROM ledger.entries
      GROUP BY transaction_id HAVING sum(amount) <> 0 OR count(*) <> 2) x`,
  );
  if (check[0]!.unbalanced !== 0) throw new Error("bulk load broke the ledger's invariants");
  await sql.query("COMMIT");
  await sql.query("VACUUM ANALYZE ledger.accounts, ledger.transactions, ledger.entries");
  // The load's pages written out now, not by a checkpoint during the measures.
  await sql.query("CHECKPOINT");
  return (performance.now() - started) / 1000;
}

const entriesCursor = listCursor("entries", z.iso.date(), z.iso.datetime(), z.uuid());

/**
 * The cursor the server answers on the page that ends with the big account's
 * entry at 0-based `depth - 1` in page order: the next page starts at `depth`.
 * Built as the server builds it (store/balances.ts), which spares walking
 * 9,000 pages.
 */
async function cursorBefore(sql: pg.Client, depth: number): Promise<string> {
  const { rows } = await sql.query<{ effective_date: string; created_at: string; id: string }>(
    `SELECT to_char(effective_date, 'YYYY-MM-DD') AS effective_date, ${isoTimestampSql("created_at")} AS created_at, id
       FROM ledger.entries WHERE account_id = $1
      ORDER BY effective_date DESC, created_at DESC, id DESC OFFSET $2 LIMIT 1`,
    [BIG_ACCOUNT, depth - 1],
  );
  const at = rows[0]!;
  return entriesCursor.encode(BIG_ACCOUNT, [at.effective_date, at.created_at, at.id]);
}

/** The cursor's page is the offset page: a wrong cursor would measure some other page. */
async function checkDeepPage(client: Ledger, cursor: string) {
  const byCursor = await call(client, `/accounts/${BIG_ACCOUNT}/entries?cursor=${cursor}`);
  const byOffset = await call(
    client,
    `/accounts/${BIG_ACCOUNT}/entries?offset=${(DEEP_PAGE - 1) * PAGE_SIZE}`,
  );
  const ids = (page: Record<string, unknown>) => (page.items as { id: string }[]).map((e) => e.id).join();
  if (ids(byCursor) !== ids(byOffset) || ids(byCursor) === "")
    throw new Error(`page ${DEEP_PAGE} by cursor is not page ${DEEP_PAGE} by offset`);
}
