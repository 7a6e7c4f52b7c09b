import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { BENCH_KEY } from "./environment.ts";
import { createSignedHttpClient } from "./signed-http-client.ts";
import { fmt, percentile, printTable, runLoad, type LoadResult } from "./stats.ts";

const CLIENTS = 16;

type Ledger = ReturnType<typeof ledger>;

function ledger(ledgerUrl: string) {
  return createSignedHttpClient(ledgerUrl, BENCH_KEY, { region: "us-east-1" });
}

/** A signed call that must succeed; its JSON answer. */
async function call(client: Ledger, path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await client.request(init.method ?? "GET", path, init.body);
  if (response.status >= 300) throw new Error(`${response.status} ${response.body}`);
  return JSON.parse(response.body) as Record<string, unknown>;
}

async function createAccount(client: Ledger, name: string, type: string): Promise<string> {
  const account = await call(client, "/accounts", { method: "POST", body: { name, type, currency: "USD" } });
  return account.id as string;
}

const row = (name: string, r: LoadResult) => [
  name,
  r.requests,
  r.errors,
  fmt(r.requests / r.seconds, 0),
  fmt(percentile(r.latenciesMs, 50)),
  fmt(percentile(r.latenciesMs, 99)),
];

/**
 * 2-entry transactions with new keys from 16 concurrent signed clients, and
 * the same INSERTs straight into PostgreSQL from 16 connections (same
 * triggers): the ceiling the served figure is compared with.
 */
export async function benchPosting(ledgerUrl: string, databaseUrl: string, seconds: number) {
  const client = ledger(ledgerUrl);
  const cash = await createAccount(client, "bench cash", "asset");
  const sales = await createAccount(client, "bench sales", "income");

  const served = await runLoad(CLIENTS, seconds, async (_worker, i) => {
    await call(client, "/transactions", {
      method: "POST",
      body: {
        idempotency_key: randomUUID(),
        entries: [
          { account_id: cash, amount: 100 + i },
          { account_id: sales, amount: -(100 + i) },
        ],
      },
    });
  });
  client.close();

  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  const ceiling = await runLoad(CLIENTS, seconds, async (worker, i) => {
    const client = clients[worker]!;
    const id = randomUUID();
    await client.query("BEGIN");
    await client.query(
      "INSERT INTO ledger.transactions (id, idempotency_key, request_hash, effective_date) VALUES ($1, $2, $3, current_date)",
      [id, randomUUID(), "0".repeat(64)],
    );
    await client.query(
      `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
       VALUES (gen_random_uuid(), $1, $2, 'USD', $4, current_date, 0), (gen_random_uuid(), $1, $3, 'USD', -$4::bigint, current_date, 1)`,
      [id, cash, sales, 100 + i],
    );
    await client.query("COMMIT");
  });
  await Promise.all(clients.map((c) => c.end()));

  const pgbench = await runPgbench(databaseUrl, cash, sales, seconds);
  const rows = [
    row("served: POST /transactions (SigV4, 16 clients)", served),
    row("ceiling: same INSERTs via pg (16 connections)", ceiling),
  ];
  if (pgbench)
    rows.push([
      "ceiling: pgbench, same INSERTs (16 clients)",
      pgbench.transactions,
      0,
      fmt(pgbench.tps, 0),
      fmt(pgbench.latencyMs),
      "-",
    ]);
  printTable(
    "Ledger posting: 2-entry transactions, new keys",
    ["run", "ok", "errors", "tx/s", "p50 ms", "p99 ms"],
    rows,
  );
  const ratio = served.requests / served.seconds / (ceiling.requests / ceiling.seconds);
  console.log(`served / ceiling (pg) = ${fmt(ratio, 2)}  (target >= 0.6)`);
  if (pgbench)
    console.log(`served / ceiling (pgbench) = ${fmt(served.requests / served.seconds / pgbench.tps, 2)}`);
}

/** pgbench with the same two INSERTs in one transaction, when pgbench is installed. */
async function runPgbench(databaseUrl: string, cash: string, sales: string, seconds: number) {
  const script = `\\set amount random(1, 100000)
BEGIN;
INSERT INTO ledger.transactions (id, idempotency_key, request_hash, effective_date)
  VALUES (gen_random_uuid(), gen_random_uuid()::text, repeat('0', 64), current_date) RETURNING id AS tx \\gset
INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
  VALUES (gen_random_uuid(), :tx, '${cash}', 'USD', (:amount)::bigint, current_date, 0),
         (gen_random_uuid(), :tx, '${sales}', 'USD', -(:amount)::bigint, current_date, 1);
COMMIT;
`;
  const file = path.join(await mkdtemp(path.join(tmpdir(), "pgbench-")), "post.sql");
  await writeFile(file, script);
  try {
    const { stdout } = await promisify(execFile)("pgbench", [
      "-n",
      "-M",
      "extended",
      "-c",
      String(CLIENTS),
      "-j",
      "2",
      "-T",
      String(seconds),
      "-f",
      file,
      databaseUrl,
    ]);
    const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
    const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1]);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1]);
    return { tps, latencyMs, transactions };
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    console.log(`(pgbench not run: ${(stderr || message).trim().split("\n").slice(0, 4).join(" | ")})`);
    return null;
  }
}

/**
 * An account with 1,000,000 entries, loaded with generate_series (triggers
 * off for the load, each transaction balanced by construction and checked
 * after): HTTP balance latency next to the bare SQL sum; then all balances
 * over 10,000 accounts.
 */
export async function benchBalances(ledgerUrl: string, databaseUrl: string, entries = 1_000_000) {
  const client = ledger(ledgerUrl);
  const big = await createAccount(client, "bench big", "asset");
  const other = await createAccount(client, "bench other", "income");
  const sql = new pg.Client({ connectionString: databaseUrl });
  sql.on("error", () => {}); // the database is dropped at the end, under this connection
  await sql.connect();

  const loadStarted = performance.now();
  await sql.query("BEGIN");
  await sql.query("SET LOCAL session_replication_role = replica"); // bulk load: triggers off, invariants kept by construction
  await sql.query(
    `INSERT INTO ledger.transactions (id, idempotency_key, request_hash, effective_date)
     SELECT md5('bench-tx-' || g)::uuid, 'bench-' || g, repeat('0', 64), date '2020-01-01' + (g % 2000)
       FROM generate_series(1, $1) g`,
    [entries],
  );
  await sql.query(
    `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
     SELECT md5('bench-e-' || g || '-' || side)::uuid, md5('bench-tx-' || g)::uuid,
            CASE side WHEN 0 THEN $2::uuid ELSE $3::uuid END, 'USD',
            CASE side WHEN 0 THEN (g % 1000) + 1 ELSE -((g % 1000) + 1) END, date '2020-01-01' + (g % 2000), side
       FROM generate_series(1, $1) g, (VALUES (0), (1)) s(side)`,
    [entries, big, other],
  );
  await sql.query("COMMIT");
  await sql.query("VACUUM ANALYZE ledger.entries");
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const { rows: check } = await sql.query(
    `SELECT count(*)::int AS unbalanced FROM (SELECT transaction_id FROM ledger.entries WHERE account_id IN ($1, $2)
      GROUP BY transaction_id HAVING sum(amount) <> 0 OR count(*) < 2) x`,
    [big, other],
  );
  if (check[0].unbalanced !== 0) throw new Error("bulk load broke the ledger's invariants");

  const asOf = "2030-01-01";
  const timed = async (runs: number, work: () => Promise<unknown>) => {
    for (let i = 0; i < 3; i += 1) await work();
    const ms: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const t0 = performance.now();
      await work();
      ms.push(performance.now() - t0);
    }
    return ms;
  };
  const http = await timed(30, () => call(client, `/accounts/${big}/balance?as_of=${asOf}`));
  const bare = await timed(30, () =>
    sql.query("SELECT sum(amount) FROM ledger.entries WHERE account_id = $1 AND effective_date <= $2", [
      big,
      asOf,
    ]),
  );

  await sql.query(
    `INSERT INTO ledger.accounts (id, name, type, currency)
     SELECT gen_random_uuid(), 'bench account ' || g, 'asset', 'EUR' FROM generate_series(1, 10000) g`,
  );
  const all = await timed(10, () => call(client, `/balances?as_of=${asOf}`));
  await sql.end();
  client.close();

  printTable(
    `Ledger balances (${entries.toLocaleString("en")} entries in one account, loaded in ${fmt(loadSeconds, 1)} s)`,
    ["measure", "runs", "p50 ms", "p99 ms"],
    [
      [
        "GET /accounts/{id}/balance (HTTP, SigV4)",
        http.length,
        fmt(percentile(http, 50)),
        fmt(percentile(http, 99)),
      ],
      [
        "SELECT sum(amount) ... (bare SQL)",
        bare.length,
        fmt(percentile(bare, 50)),
        fmt(percentile(bare, 99)),
      ],
      ["GET /balances (10,002 accounts)", all.length, fmt(percentile(all, 50)), fmt(percentile(all, 99))],
    ],
  );
  console.log(`HTTP / SQL (p50) = ${fmt(percentile(http, 50) / percentile(bare, 50), 2)}  (target <= 1.2)`);
}
