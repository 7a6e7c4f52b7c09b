import type { Socket } from "node:net";
import pg from "pg";

/** How often the server is asked. */
const PROBE_INTERVAL_MS = 1_000;
/** How long a new probe connection of the watch has to be ready. */
const CONNECT_TIMEOUT_MS = 2_000;

/** How the server answered one ask: "timeout" when it said nothing at all in time. */
type ServerAnswer = "answered" | "failed" | "timeout";

export interface HangWatch {
  /** Watches a connection of the same server outside the pool too, until it ends. */
  watch(client: pg.Client): void;
  /**
   * Whether the server answers `SELECT 1` within `ms` (connecting included) on
   * a connection of its own, not the pool's: a pool whose every connection is
   * busy is not a server that is gone. A server that answered any watched
   * connection meanwhile answers too. Behind a pooler (a probe timeout longer
   * than `ms`) an ask that waits in its queue is not an answer either way: the
   * server answers unless the watch has found it silent.
   */
  answersWithin(ms: number): Promise<boolean>;
}

/**
 * A PostgreSQL that stops answering without closing its connections (a frozen
 * or failing-over server, a network that drops packets) leaves every query on
 * them waiting: no statement timeout fires in a server that does not run, and
 * TCP sees nothing wrong. So, every second while the pool holds connections,
 * the watch asks the server `SELECT 1` on a connection of its own; when it
 * says nothing within `probeTimeoutMs` (a new probe connection has 2 s to be
 * made first), on the probe or on any connection of the pool, every
 * connection of the pool is closed, and the queries waiting on them fail at
 * once (as "Connection terminated unexpectedly", a 503). New connections then
 * wait at most the connect timeout.
 *
 * A slow statement does not trip it (the probe answers beside it), nor a
 * server that answers other connections while the probe waits (behind a
 * pooler, the probe queues like any client), nor a server that refuses
 * connections (that fails fast by itself).
 */
export function watchForHang(pool: pg.Pool, connectionString: string, probeTimeoutMs: number): HangWatch {
  const clients = new Set<pg.Client>();
  /** When any connection of this server last received something from it (performance.now()). */
  let lastHeardAt = 0;
  const hearFrom = (client: pg.Client) =>
    socketOf(client).on("data", () => (lastHeardAt = performance.now()));
  const watch = (client: pg.Client) => {
    clients.add(client);
    hearFrom(client);
  };
  pool.on("connect", watch);
  pool.on("remove", (client) => clients.delete(client));

  // Two probes: a readiness check that gives up must not cut the watch's ask short on a shared connection.
  const hangProbe = serverProbe(connectionString, hearFrom);
  const readinessProbe = serverProbe(connectionString, hearFrom);
  /** The watch's last verdict: the server said nothing for the whole probe timeout. */
  let silent = false;
  let probing = false;
  async function check() {
    if (pool.ending) {
      clearInterval(timer);
      hangProbe.end();
      readinessProbe.end();
      return;
    }
    if (probing || clients.size === 0) return;
    probing = true;
    try {
      // A new probe connection has the connect timeout, not the probe's: a backend starting on a
      // busy machine is not a hang (a second was too short for one under a loaded CI run).
      const askedAt = performance.now();
      const outcome = await hangProbe.ask(probeTimeoutMs, CONNECT_TIMEOUT_MS);
      // A server heard from on another connection meanwhile is busy, not gone.
      silent = outcome === "timeout" && lastHeardAt <= askedAt;
      if (silent) for (const client of clients) closeSocket(client);
    } finally {
      probing = false;
    }
  }

  const timer = setInterval(() => void check(), PROBE_INTERVAL_MS);
  timer.unref();
  return {
    watch: (client) => {
      watch(client);
      client.once("end", () => clients.delete(client));
    },
    async answersWithin(ms) {
      const askedAt = performance.now();
      // One deadline for connecting and asking; the ask goes on to close its connection by itself.
      const outcome = await Promise.race([
        readinessProbe.ask(ms, ms),
        new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), ms).unref()),
      ]);
      if (outcome !== "timeout") return outcome === "answered";
      return lastHeardAt > askedAt || (probeTimeoutMs > ms && !silent);
    },
  };
}

interface ServerProbe {
  /** `SELECT 1` within `ms`, once connected within `connectMs`; a connection not answered is closed. */
  ask(ms: number, connectMs: number): Promise<ServerAnswer>;
  end(): void;
}

/** A connection of its own that asks the server `SELECT 1`, made anew after an ask it was not answered. */
function serverProbe(connectionString: string, onConnected: (client: pg.Client) => void): ServerProbe {
  let probe: Promise<pg.Client> | null = null;

  async function connect(): Promise<pg.Client> {
    // pg's own timeout is longer: settleWithin decides, so that a connection that hangs counts as a hang.
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2 * CONNECT_TIMEOUT_MS });
    client.on("error", () => {});
    await client.connect();
    onConnected(client);
    return client;
  }

  return {
    async ask(ms, connectMs) {
      const connecting = (probe ??= connect());
      const connected = await settleWithin(connecting, connectMs);
      const outcome =
        connected.outcome === "answered"
          ? (await settleWithin(connected.value.query("SELECT 1"), ms)).outcome
          : connected.outcome;
      if (outcome !== "answered") {
        if (probe === connecting) probe = null;
        void connecting.then(closeSocket, () => {});
      }
      return outcome;
    },
    end() {
      void probe?.then((client) => client.end()).catch(() => {});
    },
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
  socketOf(client).destroy();
}

/** node-postgres's socket of a client (`connection.stream`, pg 8). */
const socketOf = (client: pg.Client): Socket =>
  (client as unknown as { connection: { stream: Socket } }).connection.stream;
