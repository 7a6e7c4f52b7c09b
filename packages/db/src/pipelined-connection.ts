import pg from "pg";
import { databaseErrorCode, DatabaseQueryError, withTimeout } from "./database-errors.ts";
import { closeSocket } from "./hang-watch.ts";

/** The rows of one statement, failing as queryRows does. */
export type RunStatement = <T>(client: pg.Client, sql: string, values: unknown[]) => Promise<T[]>;

export interface PipelinedConnection {
  /** The rows of one statement, sent at once even while earlier ones still run. */
  query<T>(sql: string, ...values: unknown[]): Promise<T[]>;
  /** Closes the connection now: the statements it had under way fail; the next one opens a new one. */
  reset(): void;
  /** Closes the connection (at most `END_WAIT_MS` for its statements under way); statements asked for afterwards fail. */
  end(): Promise<void>;
}

/** How long `end()` lets statements under way finish before it closes the socket (a frozen server never answers). */
const END_WAIT_MS = 2_000;

/**
 * SQLSTATEs after which the server has ended the session: connection
 * exceptions (08), shutdowns and terminations (57P), an idle transaction's
 * timeout. Every other error with a SQLSTATE is the statement's own, and the
 * connection goes on. (The error's severity would say FATAL, but PostgreSQL
 * translates it.)
 */
const SESSION_ENDED = /^(08|57P|25P03)/;

interface Connection {
  client: Promise<pg.Client>;
  /** Statement texts that have run on it once, and the first use still under way of others. */
  parsed: Set<string>;
  parsing: Map<string, Promise<unknown>>;
}

/**
 * One connection in node-postgres's pipeline mode, beside the pool: a
 * statement is written to the server while the ones before it still run, and
 * PostgreSQL starts it the moment the one before commits, with no round trip
 * between them. Each statement is its own implicit transaction (a Sync of its
 * own), so one that fails does not fail the next.
 *
 * A named statement is parsed by its first use on the connection; a later
 * use written behind a Parse that then failed (its lock timed out) would
 * fail too ("prepared statement does not exist"). So a text waits for its
 * first use to succeed or fail before its next one is sent.
 *
 * Made on first use. A connection that fails (lost, closed by the hang watch,
 * a statement unanswered for `query_timeout`, a session the server ended)
 * fails the statements it had under way, and the next statement opens a new
 * one. `watch` is given each new connection (the pool's hang watch).
 */
export function createPipelinedConnection(
  config: pg.ClientConfig,
  run: RunStatement,
  watch: (client: pg.Client) => void,
): PipelinedConnection {
  let current: Connection | null = null;
  let ended = false;

  /** Stops using a connection and closes its socket: the next statement opens a new one. */
  function drop(connection: Connection) {
    if (current === connection) current = null;
    connection.client.then(closeSocket, () => {});
  }

  function connection(): Connection {
    if (current) return current;
    const client = new pg.Client({ ...config, pipeline: true } as pg.ClientConfig);
    const made: Connection = {
      client: client.connect().then(() => {
        watch(client);
        return client;
      }),
      parsed: new Set(),
      parsing: new Map(),
    };
    // Heard, a lost connection's error fails its statements under way instead of ending the process.
    client.on("error", () => drop(made));
    client.on("end", () => drop(made));
    current = made;
    return made;
  }

  /** `sql` on `on`, once no first use of the same text is under way there. */
  async function send<T>(on: Connection, client: pg.Client, sql: string, values: unknown[]): Promise<T[]> {
    while (!on.parsed.has(sql)) {
      const firstUse = on.parsing.get(sql);
      if (!firstUse) break;
      await firstUse.catch(() => {});
    }
    if (on.parsed.has(sql)) return run<T>(client, sql, values);
    // The first use, alone. Failed, it may not have been parsed: the next use is a first use again.
    const rows = run<T>(client, sql, values);
    on.parsing.set(sql, rows);
    try {
      const answer = await rows;
      on.parsed.add(sql);
      return answer;
    } finally {
      on.parsing.delete(sql);
    }
  }

  return {
    async query<T>(sql: string, ...values: unknown[]): Promise<T[]> {
      if (ended) throw new DatabaseQueryError(new Error("Client was closed and is not queryable"));
      const on = connection();
      let client: pg.Client;
      try {
        client = await on.client;
      } catch (error) {
        drop(on);
        throw new DatabaseQueryError(error);
      }
      try {
        return await send<T>(on, client, sql, values);
      } catch (error) {
        // The client may learn only with a later statement that the server ended its session.
        const code = databaseErrorCode(error);
        if (code === undefined || SESSION_ENDED.test(code)) drop(on);
        throw error;
      }
    },
    reset() {
      if (current) drop(current);
    },
    async end() {
      ended = true;
      const on = current;
      current = null;
      const client = await on?.client.catch(() => null);
      if (!client) return;
      await withTimeout(client.end(), END_WAIT_MS, () => closeSocket(client)).catch(() => {});
    },
  };
}
