import type { ChildProcess } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase, migrationsDirectory } from "@app/db";
import { startEmbeddedPostgres, type RunningPostgres } from "@app/db/embedded-postgres";
import { env, repoRoot } from "../scripts/env.ts";
import { startLedger, startWeb, stopProcess, waitForHealthy } from "../scripts/processes.ts";
import { freePort } from "./free-port.ts";
import { FULL_KEY } from "./ledger-server.ts";

export interface ServicesOnOwnDatabase {
  webUrl: string;
  ledgerUrl: string;
  /** The PostgreSQL the services use: the tests stop, start or freeze it; not the run's. */
  postgres: RunningPostgres;
  /** Starts that PostgreSQL again, on the same port, after `postgres.stop()`. */
  restartDatabase(): Promise<void>;
  /** The two server processes, web and ledger, for tests that signal them. */
  servers: ChildProcess[];
  /** What the ledger has written to stdout so far: its JSON log lines. */
  ledgerLog(): string;
  stop(): Promise<void>;
}

/**
 * Both services' production servers on an embedded PostgreSQL of their own,
 * for tests that make the database misbehave without touching the others'.
 * With `unixSocket`, their DATABASE_URL names the server's Unix-domain socket.
 */
export async function startServicesOnOwnDatabase(
  name: string,
  { unixSocket = false }: { unixSocket?: boolean } = {},
): Promise<ServicesOnOwnDatabase> {
  const root = await mkdtemp(path.join(tmpdir(), `${name}-`));
  await chmod(root, 0o755); // the server runs as the "postgres" user when we are root
  const databasePort = await freePort();
  const startDatabase = () =>
    startEmbeddedPostgres({
      directory: path.join(root, "postgres"),
      preferredPort: databasePort,
      database: "app",
      unixSocket,
    });
  let postgres = await startDatabase();
  await migrateDatabase(postgres.url, migrationsDirectory(repoRoot));

  const credentialsFile = path.join(root, "credentials.json");
  await writeFile(credentialsFile, JSON.stringify([FULL_KEY]));
  const [webPort, ledgerPort] = [await freePort(), await freePort()];
  const databaseUrl = unixSocket ? postgres.socketUrl : postgres.url;
  if (!databaseUrl) throw new Error(`no Unix-domain socket: the path under ${root} is too long for one`);
  const service = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: env.DATA_DIR,
    HOST: "127.0.0.1",
    PORT: webPort,
    LEDGER_PORT: ledgerPort,
    SHUTDOWN_DRAIN_MS: 0,
  };
  const ledger = startLedger(service, "piped", { LEDGER_CREDENTIALS_FILE: credentialsFile });
  let ledgerLog = "";
  ledger.stdout!.on("data", (chunk: Buffer) => (ledgerLog += chunk.toString()));
  const children: ChildProcess[] = [startWeb(service, "quiet"), ledger];
  const webUrl = `http://127.0.0.1:${webPort}`;
  const ledgerUrl = `http://127.0.0.1:${ledgerPort}`;
  const stop = async () => {
    await Promise.all(children.map((child) => stopProcess(child)));
    await postgres.stop();
    await rm(root, { recursive: true, force: true });
  };
  try {
    await Promise.all([waitForHealthy(`${webUrl}/healthz`), waitForHealthy(`${ledgerUrl}/healthz`)]);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    webUrl,
    ledgerUrl,
    get postgres() {
      return postgres;
    },
    async restartDatabase() {
      postgres = await startDatabase();
    },
    servers: children,
    ledgerLog: () => ledgerLog,
    stop,
  };
}
