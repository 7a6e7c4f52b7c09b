import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import {
  startBarePostingServer,
  type BarePostingServer,
  type BarePostingStore,
} from "./bare-posting-ceiling.ts";
import { createMinimalSchema, emptyMinimalSchema } from "./minimal-schema.ts";
import { call, CLIENTS, createAccount, ledger, row, type Ledger } from "./ledger-calls.ts";
import { cpuByLoad, CPU_COLUMNS, rateRatioParts } from "./process-cpu.ts";
import { fmt, percentile, printTable, runLoad, runLoadsInTurns, type LoadResult } from "./stats.ts";

/**
 * Single posts and batches of 2-entry transactions with new keys, served over
 * SigV4, next to ceilings for the same writes: a bare HTTP server (node:http
 * and node-postgres, one statement per post into the minimal schema) and a
 * bare HTTP server posting through the ledger's own store, driven by the same
 * client, by turns with the single posts (runLoadsInTurns: all see the
 * machine alike; issue 23), and PostgreSQL's
 * own (pgbench, when installed): the project's schema and a minimal correct
 * ledger schema, one transaction per commit and ten (issue 15). The targets
 * are the ratios printed.
 */
export async function benchPosting(
  ledgerUrl: string,
  ledgerPid: number | undefined,
  databaseUrl: string,
  seconds: number,
) {
  const client = ledger(ledgerUrl);
  const cash = await createAccount(client, "bench cash", "asset");
  const sales = await createAccount(client, "bench sales", "income");
  const transaction = (i: number) => ({
    idempotency_key: randomUUID(),
    entries: [
      { account_id: cash, amount: 100 + i },
      { account_id: sales, amount: -(100 + i) },
    ],
  });

  await createMinimalSchema(databaseUrl, [cash, sales]);

  const post = (to: Ledger) => async (_worker: number, i: number) => {
    await call(to, "/transactions", { method: "POST", body: transaction(i) });
  };
  const { served, bare, bareStore, cpu } = await againstBareHttpCeilings(databaseUrl, async (ceilings) => {
    const cpu = cpuByLoad([ledgerPid, ceilings.minimal.server.pid, ceilings.ledger.server.pid]);
    const [served, bare, bareStore] = await runLoadsInTurns(
      CLIENTS,
      seconds,
      [post(client), post(ceilings.minimal.client), post(ceilings.ledger.client)],
      { around: cpu.around },
    );
    return { served, bare, bareStore, cpu };
  });
  const batches = [];
  for (const size of BATCH_SIZES) {
    const load = await runLoad(BATCH_CLIENTS, seconds, async (_worker, i) => {
      const answer = await call(client, "/transactions/batch", {
        method: "POST",
        body: { transactions: Array.from({ length: size }, (_, j) => transaction(i + j)) },
      });
      if ((answer.results as { status: number }[]).some((r) => r.status !== 201))
        throw new Error("not written");
    });
    batches.push({ size, load });
  }
  client.close();

  const pgbench = await pgbenchCeilings(databaseUrl, cash, sales, seconds);
  const rate = (r: LoadResult, perRequest = 1) => (r.requests * perRequest) / r.seconds;
  const rows = [
    row(`served: POST /transactions (SigV4, ${CLIENTS} clients)`, served),
    ...batches.map(({ size, load }) =>
      row(`served: POST /transactions/batch of ${size} (${BATCH_CLIENTS} clients; ms per batch)`, load, size),
    ),
    row(
      `ceiling: bare HTTP, node:http + pg, 1 statement per post, minimal schema (${CLIENTS} clients)`,
      bare,
    ),
    row(`ceiling: bare HTTP, node:http + the ledger's store and schema (${CLIENTS} clients)`, bareStore),
    ...(pgbench?.rows ?? []),
  ];
  printTable(
    "Ledger posting: 2-entry transactions, new keys",
    ["run", "tx", "errors", "tx/s", "p50 ms", "p99 ms"],
    rows,
  );
  // A ceiling's rate counts only the requests it answered: with failures, a ratio to it means nothing.
  const failed = (ceiling: LoadResult) =>
    ceiling.errors > 0 ? `  (the ceiling failed ${ceiling.errors} requests: not a measure)` : "";
  const parts = rateRatioParts(cpu.use(0, served), cpu.use(1, bare));
  console.log(
    [
      `single served / bare HTTP ceiling = ${fmt(rate(served) / rate(bare), 2)}  (target >= 0.85)${failed(bare)}`,
      `  of which the HTTP edge: single served / bare HTTP on the ledger's store = ${fmt(rate(served) / rate(bareStore), 2)}${failed(bareStore)}`,
      `  and the storage: bare HTTP on the ledger's store / bare HTTP ceiling = ${fmt(rate(bareStore) / rate(bare), 2)}${failed(bare) || failed(bareStore)}`,
      `  or, all processes together: CPU per post, the ceiling's / served = ${fmt(parts.cpu, 2)}, times the machine's cores kept busy, served / the ceiling's = ${fmt(parts.use, 2)}`,
    ].join("\n"),
  );
  printTable("Single posts: CPU per post (µs), by process, during the same turns", CPU_COLUMNS, [
    cpu.row("served: the ledger", 0, served),
    cpu.row("bare HTTP ceiling", 1, bare),
    cpu.row("bare HTTP on the ledger's store", 2, bareStore),
  ]);
  if (!pgbench) return;
  const batch100 = batches.find((b) => b.size === 100)!.load;
  console.log(
    [
      `single served / minimal schema, 1 per commit = ${fmt(rate(served) / pgbench.minimalPerCommit, 2)}  (target >= 0.8)`,
      `single served / project schema, 1 per commit = ${fmt(rate(served) / pgbench.projectPerCommit, 2)}  (target > 1)`,
      `batch of 100 served / minimal schema, 10 per commit = ${fmt(rate(batch100, 100) / pgbench.minimalTenPerCommit, 2)}  (target >= 0.7; and >= 10,000 tx/s: ${fmt(rate(batch100, 100), 0)})`,
    ].join("\n"),
  );
}

/**
 * `measure` run with both bare posting servers (bench/bare-posting-server.ts:
 * the minimal schema's and the ledger store's) and a client of each (the same
 * signed client as the ledger's); the servers are stopped whatever happens.
 */
async function againstBareHttpCeilings<T>(
  databaseUrl: string,
  measure: (ceilings: Record<BarePostingStore, { server: BarePostingServer; client: Ledger }>) => Promise<T>,
): Promise<T> {
  const started: { server: BarePostingServer; client: Ledger }[] = [];
  const start = async (store: BarePostingStore) => {
    const server = await startBarePostingServer(databaseUrl, store);
    const ceiling = { server, client: ledger(server.url) };
    started.push(ceiling);
    return ceiling;
  };
  try {
    return await measure({ minimal: await start("minimal"), ledger: await start("ledger") });
  } finally {
    for (const { server, client } of started) {
      client.close();
      await server.stop();
    }
  }
}

const BATCH_SIZES = [100, 1000];
const BATCH_CLIENTS = 4;

/**
 * pgbench ceilings (16 clients, prepared statements, BEGIN, per transaction
 * an INSERT of it and one of its two entries, COMMIT): the project's schema
 * one per commit; the minimal schema one and ten per commit. Null without pgbench.
 */
async function pgbenchCeilings(databaseUrl: string, cash: string, sales: string, seconds: number) {
  // From empty tables, as before the bare ceiling wrote into them, so its figures stay comparable.
  await emptyMinimalSchema(databaseUrl);
  const project = (
    i: number,
  ) => `INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date)
  VALUES (gen_random_uuid(), 'bench', gen_random_uuid()::text, repeat('0', 64), current_date) RETURNING id AS tx${i} \\gset
INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
  VALUES (gen_random_uuid(), :tx${i}, '${cash}', 'USD', (:amount)::bigint, current_date, 0),
         (gen_random_uuid(), :tx${i}, '${sales}', 'USD', -(:amount)::bigint, current_date, 1);
`;
  const minimal = (i: number) => `INSERT INTO minimal.transactions (id, idempotency_key, effective_date)
  VALUES (gen_random_uuid(), gen_random_uuid()::text, current_date) RETURNING id AS tx${i} \\gset
INSERT INTO minimal.entries (transaction_id, position, account_id, amount, effective_date)
  VALUES (:tx${i}, 0, '${cash}', (:amount)::bigint, current_date), (:tx${i}, 1, '${sales}', -(:amount)::bigint, current_date);
`;
  const runs = [
    { name: "project schema, 1 per commit", perCommit: 1, tx: project },
    { name: "minimal schema, 1 per commit", perCommit: 1, tx: minimal },
    { name: "minimal schema, 10 per commit", perCommit: 10, tx: minimal },
  ];
  const results = [];
  for (const run of runs) {
    const result = await runPgbench(databaseUrl, run.perCommit, run.tx, seconds);
    if (!result) return null;
    results.push({ ...run, ...result });
  }
  const [project1, minimal1, minimal10] = results as [
    (typeof results)[0],
    (typeof results)[0],
    (typeof results)[0],
  ];
  return {
    projectPerCommit: project1.tps,
    minimalPerCommit: minimal1.tps,
    minimalTenPerCommit: minimal10.tps,
    rows: results.map((r) => [
      `ceiling: pgbench, ${r.name} (${CLIENTS} clients)`,
      r.transactions,
      0,
      fmt(r.tps, 0),
      fmt(r.latencyMs),
      "-",
    ]),
  };
}

/** One pgbench run of `perCommit` transactions per commit; transactions per second, or null without pgbench. */
async function runPgbench(
  databaseUrl: string,
  perCommit: number,
  tx: (i: number) => string,
  seconds: number,
) {
  let script = "\\set amount random(1, 100000)\nBEGIN;\n";
  for (let i = 0; i < perCommit; i += 1) script += tx(i);
  script += "COMMIT;\n";
  const file = path.join(await mkdtemp(path.join(tmpdir(), "pgbench-")), "post.sql");
  await writeFile(file, script);
  try {
    const { stdout } = await promisify(execFile)("pgbench", [
      "-n",
      "-M",
      "prepared",
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
    const commits = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
    const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1]);
    const processed = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1]);
    return { tps: commits * perCommit, latencyMs, transactions: processed * perCommit };
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
    `INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date)
     SELECT md5('bench-tx-' || g)::uuid, 'bench', 'bench-' || g, repeat('0', 64), date '2020-01-01' + (g % 2000)
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
  // Both tables the load wrote: else autovacuum takes up a million new transactions during the runs that follow.
  await sql.query("VACUUM ANALYZE ledger.entries, ledger.transactions");
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
