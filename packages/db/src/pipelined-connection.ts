import pg from "pg";
import { DatabaseQueryError } from "./database-errors.ts";

/** The rows of one statement, failing as queryRows does. */
export type RunStatement = <T>(client: pg.Client, sql: string, values: unknown[]) => Promise<T[]>;

export interface PipelinedConnection {
  /** The rows of one statement, sent at once even while earlier ones still run. */
  query<T>(sql: string, ...values: unknown[]): Promise<T[]>;
  /** Closes the connection; statements asked for afterwards fail. */
  end(): Promise<void>;
}

/**
 * One connection in node-postgres's pipeline mode, beside the pool: a
 * statement is written to the server while the ones before it still run, and
 * PostgreSQL starts it the moment the one before commits, with no round trip
 * between them. Each statement is its own implicit transaction (a Sync of its
 * own), so one that fails does not fail the next.
 *
 * Made on first use. A connection that fails (lost, closed by the hang watch,
 * a statement unanswered for `query_timeout`, which closes it) fails the
 * statements it had under way, and the next statement opens a new one.
 * `watch` is given each new connection (the pool's hang watch).
 */
export function createPipelinedConnection(
  config: pg.ClientConfig,
  run: RunStatement,
  watch: (client: pg.Client) => void,
): PipelinedConnection {
  let current: Promise<pg.Client> | null = null;
  let ended = false;

  /** Stops using a connection: the next statement opens a new one. */
  function drop(connecting: Promise<pg.Client>) {
    if (current !== connecting) return;
    current = null;
    void connecting.then((client) => client.end()).catch(() => {});
  }

  function connection(): Promise<pg.Client> {
    if (current) return current;
    const client = new pg.Client({ ...config, pipeline: true } as pg.ClientConfig);
    const connecting = client.connect().then(() => {
      watch(client);
      return client;
    });
    // Heard, a lost connection's error fails its statements under way instead of ending the process.
    client.on("error", () => drop(connecting));
    client.on("end", () => drop(connecting));
    current = connecting;
    return connecting;
  }

  return {
    async query<T>(sql: string, ...values: unknown[]): Promise<T[]> {
      if (ended) throw new DatabaseQueryError(new Error("Client was closed and is not queryable"));
      const connecting = connection();
      let client: pg.Client;
      try {
        client = await connecting;
      } catch (error) {
        drop(connecting);
        throw new DatabaseQueryError(error);
      }
      try {
        return await run<T>(client, sql, values);
      } catch (error) {
        // A statement's own ERROR leaves the session usable; anything else (FATAL, a lost socket) does not,
        // and the client may learn it only later.
        if ((error as { cause?: { severity?: string } }).cause?.severity !== "ERROR") drop(connecting);
        throw error;
      }
    },
    async end() {
      ended = true;
      const connecting = current;
      current = null;
      await connecting?.then(
        (client) => client.end(),
        () => {},
      );
    },
  };
}
