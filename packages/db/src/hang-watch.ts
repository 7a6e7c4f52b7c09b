import pg from "pg";

/** How often the server is asked, and how long it has to answer. */
const PROBE_INTERVAL_MS = 1_000;
const PROBE_TIMEOUT_MS = 1_000;
/** How long a new probe connection has to be ready. */
const CONNECT_TIMEOUT_MS = 2_000;

/**
 * A PostgreSQL that stops answering without closing its connections (a frozen
 * or failing-over server, a network that drops packets) leaves every query on
 * them waiting: no statement timeout fires in a server that does not run, and
 * TCP sees nothing wrong. So, every second while the pool holds connections,
 * one trivial query goes to the server on a connection of its own; when it
 * gets no answer within a second (a new probe connection has 2 s to be made
 * first), every connection of the pool is closed, and
 * the queries waiting on them fail at once (as "Connection terminated
 * unexpectedly", a 503). New connections then wait at most the connect timeout.
 *
 * A slow statement does not trip it (the probe answers beside it), nor does a
 * server that refuses connections (that fails fast by itself). A connection
 * of the same server outside the pool is watched too once given to the
 * function it returns, until it ends.
 */
export function watchForHang(pool: pg.Pool, connectionString: string): (client: pg.Client) => void {
  const clients = new Set<pg.Client>();
  pool.on("connect", (client) => clients.add(client));
  pool.on("remove", (client) => clients.delete(client));

  let probe: Promise<pg.Client> | null = null;
  let probing = false;

  async function check() {
    if (pool.ending) {
      clearInterval(timer);
      void probe?.then((client) => client.end()).catch(() => {});
      return;
    }
    if (probing || clients.size === 0) return;
    probing = true;
    try {
      if (!(await answers())) for (const client of clients) closeSocket(client);
    } finally {
      probing = false;
    }
  }

  /** False only when the server did not answer in time; any other failure is not a hang. */
  async function answers(): Promise<boolean> {
    const connecting = (probe ??= connectProbe());
    // A new probe connection has the connect timeout, not the probe's: a backend starting on a
    // busy machine is not a hang (a second was too short for one under a loaded CI run).
    const connected = await settleWithin(connecting, CONNECT_TIMEOUT_MS);
    const outcome =
      connected.outcome === "answered"
        ? (await settleWithin(connected.value.query("SELECT 1"), PROBE_TIMEOUT_MS)).outcome
        : connected.outcome;
    if (outcome === "answered") return true;
    forget(connecting);
    void connecting.then(closeSocket, () => {});
    return outcome === "failed";
  }

  /** Drops a probe connection that failed or hung, so that the next check opens a new one. */
  function forget(connecting: Promise<pg.Client>) {
    if (probe === connecting) probe = null;
  }

  async function connectProbe(): Promise<pg.Client> {
    // pg's own timeout is longer: settleWithin decides, so that a connection that hangs counts as a hang.
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2 * CONNECT_TIMEOUT_MS });
    client.on("error", () => {});
    await client.connect();
    return client;
  }

  const timer = setInterval(() => void check(), PROBE_INTERVAL_MS);
  timer.unref();
  return (client) => {
    clients.add(client);
    client.once("end", () => clients.delete(client));
  };
}

/**
 * How a promise settled within `ms`: "timeout" only when it had not. A blocked event loop fires
 * the timer before it reads an answer that came in time, so on a timeout it first lets the loop
 * read what has arrived (the poll phase runs before setImmediate's), then decides.
 */
async function settleWithin<T>(
  promise: Promise<T>,
  ms: number,
): Promise<{ outcome: "answered"; value: T } | { outcome: "failed" | "timeout" }> {
  const settled = promise.then(
    (value) => ({ outcome: "answered" as const, value }),
    () => ({ outcome: "failed" as const }),
  );
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<{ outcome: "timeout" }>((resolve) => {
    timer = setTimeout(() => resolve({ outcome: "timeout" }), ms);
  });
  const first = await Promise.race([settled, timedOut]);
  clearTimeout(timer);
  if (first.outcome !== "timeout") return first;
  await new Promise((resolve) => setImmediate(resolve));
  return Promise.race([settled, Promise.resolve({ outcome: "timeout" as const })]);
}

/**
 * Closes a client's socket now: `end()` would wait for a server that does not
 * answer; its query under way fails, as any later one. (`connection.stream`
 * is node-postgres's socket, pg 8.)
 */
export function closeSocket(client: pg.Client): void {
  (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
}
