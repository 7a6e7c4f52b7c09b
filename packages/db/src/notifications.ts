import pg from "pg";
import { queryRows, type Database } from "./client.ts";

/** How long a lost LISTEN connection waits before it connects again. */
const RECONNECT_DELAY_MS = 1_000;

/**
 * LISTENs on `channel` over a connection of its own (LISTEN is a session's,
 * so never through PgBouncer in transaction mode) and calls `onNotification`
 * for each notification, and once more after every (re)connection, since
 * whatever was sent while it was away is lost. A lost connection is opened
 * again after RECONNECT_DELAY_MS until `close()`.
 */
export function listenForNotifications(
  connectionString: string,
  channel: string,
  onNotification: () => void,
  onError: (error: unknown) => void = () => {},
): { close(): Promise<void> } {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  async function connect() {
    const next = new pg.Client({ connectionString, keepAlive: true, connectionTimeoutMillis: 2_000 });
    client = next;
    next.on("notification", () => onNotification());
    next.on("error", (error) => lost(next, error));
    next.on("end", () => lost(next, new Error("the LISTEN connection ended")));
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (closed) await next.end();
      else onNotification();
    } catch (error) {
      lost(next, error);
    }
  }

  function lost(which: pg.Client, error: unknown) {
    if (client !== which || closed) return;
    client = null;
    onError(error);
    which.end().catch(() => {});
    retry = setTimeout(() => void connect(), RECONNECT_DELAY_MS);
    retry.unref();
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}

/**
 * A function that NOTIFYs `channel` on `db`'s pool, without waiting, at most
 * once per `intervalMs`: the calls in between are one NOTIFY at its end (a
 * notification only says "look again"). Under a stream of posts a NOTIFY per
 * post cost about a tenth of the posting rate; one per 20 ms costs a reader
 * on another instance at most 20 ms. Sent after a commit, never inside the
 * writing transaction, where NOTIFY would serialize every commit of the
 * database on PostgreSQL's notification lock.
 */
export function createNotifier(
  db: Database,
  channel: string,
  onError: (error: unknown) => void = () => {},
  intervalMs = 20,
) {
  let pending: NodeJS.Timeout | null = null;
  let lastSent = -Infinity;
  function send() {
    pending = null;
    lastSent = performance.now();
    queryRows(db, `SELECT pg_notify($1, '')`, channel).catch(onError);
  }
  return () => {
    if (pending) return;
    pending = setTimeout(send, Math.max(0, lastSent + intervalMs - performance.now()));
    pending.unref();
  };
}
