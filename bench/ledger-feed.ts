import { randomUUID } from "node:crypto";
import { call, CLIENTS, createAccount, ledger, row } from "./ledger-calls.ts";
import { fmt, mergeLoadResults, percentile, printTable, runLoad, type LoadResult } from "./stats.ts";

/** How long a reader's GET /events waits for a change; short, so it ends soon after the posts do. */
const WAIT_SECONDS = 1;
const FEED_PAGE = 1_000;
/**
 * Pairs of posting runs (without the reader, then with it), each half of
 * BENCH_SECONDS: other work on the machine moved posting by a factor of two
 * from one 10 s run to the next, so many short runs side by side compare
 * better than two long ones.
 */
const PASSES = 6;
/** After the posts end, how long the reader may take to see the last of them. */
const DRAIN_MS = 5_000;
/**
 * The pause after a page that is not full, as docs/ledger-api.md ("Following
 * the feed") tells readers to make; 0 is a reader that asks again at once.
 */
const FOLLOW_PAUSE_MS = 100;

/**
 * The event feed keeps up (issue's speed part): 16 clients post 2-entry
 * transactions at full speed while one reader follows GET /events by long
 * poll. A post's lag is the time the reader received its event minus the time
 * its client received the 201, both on this process's clock (negative when
 * the reader heard first). Posting runs alternate without and with the
 * reader (PASSES each, the same length), so the throughput ratio sees the
 * machine's drift on both sides.
 */
export async function benchFeed(ledgerUrl: string, seconds: number) {
  const client = ledger(ledgerUrl);
  const cash = await createAccount(client, "feed cash", "asset");
  const sales = await createAccount(client, "feed sales", "income");
  const post = async (i: number) =>
    (
      await call(client, "/transactions", {
        method: "POST",
        body: {
          idempotency_key: randomUUID(),
          entries: [
            { account_id: cash, amount: 100 + i },
            { account_id: sales, amount: -(100 + i) },
          ],
        },
      })
    ).id as string;

  await runLoad(CLIENTS, 2, async (_worker, i) => void (await post(i))); // warm-up: the first seconds of a server are slower
  const without: LoadResult[] = [];
  const followed: (LoadResult & Reading)[] = [];
  const eager: (LoadResult & Reading)[] = [];
  for (let pass = 0; pass < PASSES; pass += 1) {
    without.push(await runLoad(CLIENTS, seconds / 2, async (_worker, i) => void (await post(i))));
    followed.push(await postWhileFollowing(ledgerUrl, seconds / 2, post, FOLLOW_PAUSE_MS));
    eager.push(await postWhileFollowing(ledgerUrl, seconds / 2, post, 0));
  }
  client.close();

  const bare = mergeLoadResults(without);
  const readers = [
    { name: `a reader pausing ${FOLLOW_PAUSE_MS} ms after a page not full (as documented)`, runs: followed },
    { name: "a reader asking again at once", runs: eager },
  ];
  printTable(
    `Ledger event feed: ${CLIENTS} clients posting, ${PASSES} × ${seconds / 2} s without a reader and with each reader, by turns`,
    ["run", "tx", "errors", "tx/s", "p50 ms", "p99 ms"],
    [
      row(`POST /transactions, no reader (${CLIENTS} clients)`, bare),
      ...readers.map(({ name, runs }) => row(`POST /transactions, ${name}`, mergeLoadResults(runs))),
    ],
  );
  const lagsOf = (runs: (LoadResult & Reading)[]) => runs.flatMap((r) => r.lagsMs);
  const unseenOf = (runs: (LoadResult & Reading)[]) => runs.reduce((n, r) => n + r.unseen, 0);
  printTable(
    "Feed lag: the reader's receipt of the event - the poster's receipt of its 201 (same process clock)",
    ["reader", "events", "unseen", "reader pages", "p50 ms", "p99 ms", "max ms", "reader first"],
    readers.map(({ name, runs }) => {
      const lags = lagsOf(runs);
      return [
        name,
        lags.length,
        unseenOf(runs),
        runs.reduce((n, r) => n + r.pages, 0),
        fmt(percentile(lags, 50)),
        fmt(percentile(lags, 99)),
        fmt(Math.max(...lags)),
        lags.filter((lag) => lag < 0).length,
      ];
    }),
  );
  const rate = (r: LoadResult) => r.requests / r.seconds;
  const unseen = unseenOf(followed);
  console.log(
    [
      `feed lag p99 = ${fmt(percentile(lagsOf(followed), 99))} ms  (target <= 250; every post seen: ${unseen === 0 ? "yes" : `no, ${unseen} unseen`})`,
      `posting with the documented reader / without = ${fmt(rate(mergeLoadResults(followed)) / rate(bare), 2)}  (target >= 0.9)`,
      `posting with a reader asking again at once / without = ${fmt(rate(mergeLoadResults(eager)) / rate(bare), 2)}`,
    ].join("\n"),
  );
}

interface Reading {
  lagsMs: number[];
  /** Posts answered 201 whose event the reader had not received DRAIN_MS after the run. */
  unseen: number;
  pages: number;
}

/**
 * A posting run while one reader, on a connection of its own, follows the
 * feed from its current end, pausing `pauseMs` after a page that is not full.
 */
async function postWhileFollowing(
  ledgerUrl: string,
  seconds: number,
  post: (i: number) => Promise<string>,
  pauseMs: number,
): Promise<LoadResult & Reading> {
  const reader = ledger(ledgerUrl);
  const answeredAt = new Map<string, number>();
  const receivedAt = new Map<string, number>();
  const lagsMs: number[] = [];
  let pages = 0;
  let reading = true;
  let after = (await call(reader, "/events?after=end")).next_cursor as string;
  const follow = (async () => {
    while (reading) {
      const page = await call(
        reader,
        `/events?after=${after}&limit=${FEED_PAGE}&wait_seconds=${WAIT_SECONDS}`,
      );
      const at = performance.now();
      pages += 1;
      for (const event of page.items as { type: string; data: { id: string } }[]) {
        if (event.type !== "transaction.posted") continue;
        const answered = answeredAt.get(event.data.id);
        if (answered === undefined) receivedAt.set(event.data.id, at);
        else {
          answeredAt.delete(event.data.id);
          lagsMs.push(at - answered);
        }
      }
      after = page.next_cursor as string;
      if (pauseMs > 0 && (page.items as unknown[]).length < FEED_PAGE)
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  })();
  // Awaited after the posts; until then a failed read must not end the process as an unhandled rejection.
  follow.catch(() => {});

  const load = await runLoad(CLIENTS, seconds, async (_worker, i) => {
    const id = await post(i);
    const at = performance.now();
    const received = receivedAt.get(id);
    if (received === undefined) answeredAt.set(id, at);
    else {
      receivedAt.delete(id);
      lagsMs.push(received - at);
    }
  });
  const drainUntil = performance.now() + DRAIN_MS;
  while (answeredAt.size > 0 && performance.now() < drainUntil)
    await new Promise((resolve) => setTimeout(resolve, 50));
  reading = false;
  await follow;
  reader.close();
  return { ...load, lagsMs, unseen: answeredAt.size, pages };
}
