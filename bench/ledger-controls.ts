import { randomUUID } from "node:crypto";
import pg from "pg";
import { call, CLIENTS, createAccount, ledger, row, type Ledger } from "./ledger-calls.ts";
import { fmt, percentile, printTable, runLoad, runLoadsInTurns, type LoadResult } from "./stats.ts";

/**
 * Balance limits and holds under load (issue 24), each as a ratio to single
 * posts on accounts without bounds measured in the same run: 16 clients
 * spending from one bounded wallet that already has 1,000 entries and one
 * that has 1,000,000 (the bounds check must not grow with them), and holds
 * each followed by its post, as pairs (against single posts run by turns with them).
 */
export async function benchControls(ledgerUrl: string, databaseUrl: string, seconds: number) {
  const client = ledger(ledgerUrl);
  const cash = await createAccount(client, "controls cash", "asset");
  const sales = await createAccount(client, "controls sales", "income");
  const sql = new pg.Client({ connectionString: databaseUrl });
  sql.on("error", () => {}); // the database is dropped at the end, under this connection
  await sql.connect();
  try {
    const move = (from: string, to: string, amount: number) => ({
      idempotency_key: randomUUID(),
      entries: [
        { account_id: from, amount },
        { account_id: to, amount: -amount },
      ],
    });
    const postUnbounded = async () => {
      await call(client, "/transactions", { method: "POST", body: move(cash, sales, 1) });
    };
    await runLoad(CLIENTS, 2, postUnbounded); // warm-up: the first seconds of a server are slower
    const unbounded = await runLoad(CLIENTS, seconds, postUnbounded);

    // Each wallet next to posts without bounds right after it, into tables of the same size: a million
    // entries more make every insert a little slower, which is no cost of the check.
    const hot: { entries: number; load: LoadResult; unbounded: LoadResult }[] = [];
    for (const entries of [1_000, 1_000_000]) {
      const wallet = await walletWithEntries(client, sql, cash, entries);
      // The first post sums the entries once (the bulk load kept no partial sums); then each reads the last.
      await call(client, "/transactions", { method: "POST", body: move(wallet, sales, 1) });
      const load = await runLoad(CLIENTS, seconds, async () => {
        await call(client, "/transactions", { method: "POST", body: move(wallet, sales, 1) });
      });
      hot.push({ entries, load, unbounded: await runLoad(CLIENTS, seconds, postUnbounded) });
    }

    const pairOf = (payer: string) => async () => {
      const hold = await call(client, "/transactions", {
        method: "POST",
        body: { ...move(payer, sales, 1), hold: { expires_in_seconds: 600 } },
      });
      await call(client, `/transactions/${hold.id as string}/post`, {
        method: "POST",
        body: { idempotency_key: randomUUID() },
      });
    };
    // By turns with single posts on accounts without bounds: the machine's speed drifts over a run.
    const pairsBesidePosts = (payer: string) =>
      runLoadsInTurns(CLIENTS, seconds, [postUnbounded, pairOf(payer)], { warmUpSeconds: 1 });
    const [postsBesideUnboundedPairs, unboundedPairs] = await pairsBesidePosts(cash);
    const [postsBesidePairs, pairs] = await pairsBesidePosts(
      await walletWithEntries(client, sql, cash, 1_000),
    );

    const rate = (r: LoadResult, perRequest = 1) => (r.requests * perRequest) / r.seconds;
    printTable(
      "Ledger controls: bounded wallets and holds (1 per request; pairs: a hold and its post)",
      ["run", "requests", "errors", "per s", "p50 ms", "p99 ms"],
      [
        row(`POST /transactions, accounts without bounds (${CLIENTS} clients)`, unbounded),
        ...hot.flatMap(({ entries, load, unbounded: after }) => [
          row(
            `POST /transactions from one wallet with ${entries.toLocaleString("en")} entries (${CLIENTS} clients)`,
            load,
          ),
          row(`  then again without bounds (${CLIENTS} clients)`, after),
        ]),
        row(`a hold and its post, as a pair, accounts without bounds (${CLIENTS} clients)`, unboundedPairs),
        row(
          `  by turns with POST /transactions without bounds (${CLIENTS} clients)`,
          postsBesideUnboundedPairs,
        ),
        row(`a hold and its post, as a pair, from one wallet (${CLIENTS} clients)`, pairs),
        row(`  by turns with POST /transactions without bounds (${CLIENTS} clients)`, postsBesidePairs),
      ],
    );
    const [small, large] = hot as [(typeof hot)[0], (typeof hot)[0]];
    console.log(
      [
        `hot wallet (1M entries) / unbounded = ${fmt(rate(large.load) / rate(unbounded), 2)}  (target >= 0.5; p99 ${fmt(percentile(large.load.latenciesMs, 99))} ms, target <= 50)`,
        `hot wallet / without bounds right after: 1k entries ${fmt(rate(small.load) / rate(small.unbounded), 2)}, 1M entries ${fmt(rate(large.load) / rate(large.unbounded), 2)}  (the check must not grow with entries: about equal)`,
        `hold + post pairs / unbounded posts by turns with them = ${fmt(rate(pairs) / rate(postsBesidePairs), 2)} from one wallet, ${fmt(rate(unboundedPairs) / rate(postsBesideUnboundedPairs), 2)} without bounds  (target >= 0.4)`,
      ].join("\n"),
    );
  } finally {
    await sql.end();
    client.close();
  }
}

/**
 * A wallet (a liability that may not be overdrawn: max_balance 0) with
 * `entries` entries, each a funding from `cash`, loaded with generate_series
 * (triggers off for the load, each transaction balanced by construction).
 */
export async function walletWithEntries(client: Ledger, sql: pg.Client, cash: string, entries: number) {
  const wallet = await createAccount(client, `controls wallet ${entries}`, "liability", { max_balance: 0 });
  await sql.query("BEGIN");
  await sql.query("SET LOCAL session_replication_role = replica");
  await sql.query(
    `INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date)
     SELECT md5($2 || g)::uuid, 'bench', $2 || g, repeat('0', 64), date '2020-01-01' + (g % 2000)
       FROM generate_series(1, $1) g`,
    [entries, wallet],
  );
  await sql.query(
    `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
     SELECT md5($2 || g || '-' || side)::uuid, md5($2 || g)::uuid, CASE side WHEN 0 THEN $3::uuid ELSE $4::uuid END,
            'USD', CASE side WHEN 0 THEN 1000 ELSE -1000 END, date '2020-01-01' + (g % 2000), side
       FROM generate_series(1, $1) g, (VALUES (0), (1)) s(side)`,
    [entries, wallet, cash, wallet],
  );
  await sql.query("COMMIT");
  // Both tables the load wrote: else autovacuum takes up a million new transactions during the runs that follow.
  await sql.query("VACUUM ANALYZE ledger.entries, ledger.transactions");
  // The load's pages written out now, not by a checkpoint during the run that follows.
  await sql.query("CHECKPOINT");
  return wallet;
}
