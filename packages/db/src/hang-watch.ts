import pg from "pg";

/** How often the server is asked, and how long it has to answer. */
const PROBE_INTERVAL_MS = 1_000;
const PROBE_TIMEOUT_MS = 1_000;

/**
 * A PostgreSQL that stops answering without closing its connections (a frozen
 * or failing-over server, a network that drops packets) leaves every query on
 * them waiting: no statement timeout fires in a server that does not run, and
 * TCP sees nothing wrong. So, every second while the pool holds connections,
 * one trivial query goes to the server on a connection of its own; when it
 * gets no answer within a second, every connection of the pool is closed, and
 * the queries waiting on them fail at once (as "Connection terminated
 * unexpectedly", a 503). New connections then wait at most the connect timeout.
 *
 * A slow statement does not trip it (the probe answers beside it), nor does a
 * server that refuses connections (that fails fast by itself).
 */
export function watchForHang(pool: pg.Pool, connectionString: string): void {
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
    const asked = connecting
      .then((client) => client.query("SELECT 1"))
      .then(
        () => "answered" as const,
        () => {
          forget(connecting);
          return "failed" as const;
        },
      );
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), PROBE_TIMEOUT_MS);
    });
    let outcome = await Promise.race([asked, timedOut]);
    clearTimeout(timer);
    if (outcome === "timeout") {
      // A blocked event loop fires the timer before it reads an answer that came in time:
      // let it read what has arrived (the poll phase runs before setImmediate's), then decide.
      await new Promise((resolve) => setImmediate(resolve));
      outcome = await Promise.race([asked, Promise.resolve("timeout" as const)]);
    }
    if (outcome !== "timeout") return true;
    forget(connecting);
    void connecting.then(closeSocket, () => {});
    return false;
  }

  /** Drops a probe connection that failed or hung, so that the next check opens a new one. */
  function forget(connecting: Promise<pg.Client>) {
    if (probe === connecting) probe = null;
  }

  async function connectProbe(): Promise<pg.Client> {
    // Longer than the probe's own timeout, so that a connection that hangs counts as a hang.
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2 * PROBE_TIMEOUT_MS });
    client.on("error", () => {});
    await client.connect();
    return client;
  }

  const timer = setInterval(() => void check(), PROBE_INTERVAL_MS);
  timer.unref();
}

/**
 * Closes a client's socket now: `end()` would wait for a server that does not
 * answer. (`connection.stream` is node-postgres's socket, pg 8.)
 */
function closeSocket(client: pg.Client): void {
  (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
}
