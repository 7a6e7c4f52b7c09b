import { writeFile } from "node:fs/promises";
import path from "node:path";
import { env } from "../scripts/env.ts";
import { migrate } from "../scripts/database.ts";
import {
  buildWebUnlessBuilt,
  startLedger,
  startWeb,
  stopProcess,
  waitForHealthy,
} from "../scripts/processes.ts";
import { createMigratedDatabase } from "../test/migrated-database.ts";
import { adminQuery, queryRows, withDatabaseName } from "../test/postgres-admin.ts";
import { freePort } from "../test/free-port.ts";

export const BENCH_KEY = {
  accessKeyId: "AKIABENCHMARKKEY0001",
  secretAccessKey: "bench-secret-0123456789abcdef",
  principal: "bench",
  actions: ["ledger:CreateAccount", "ledger:PostTransaction", "ledger:Read"],
};

export interface BenchEnvironment {
  databaseUrl: string;
  ledgerUrl: string;
  /** Starts the web app's production build against the bench database (for the resume benchmarks). */
  startWeb(extraEnv?: Record<string, string>): Promise<string>;
  /**
   * A database that later runs reuse (`name`, created and migrated as needed,
   * never dropped: what a benchmark loads into it once takes minutes), and a
   * ledger server of its own on it.
   */
  startKeptLedger(name: string): Promise<{ databaseUrl: string; ledgerUrl: string }>;
  /** The process of the server started here at `url` (its CPU time: bench/process-cpu.ts). */
  pidOf(url: string): number | undefined;
  stop(): Promise<void>;
}

/**
 * A database of its own (on DATABASE_URL's server, else the embedded one in
 * .data/bench-postgres), migrated, and the ledger's production server on it.
 * `stop()` stops what was started and drops the database.
 */
export async function startBenchEnvironment(): Promise<BenchEnvironment> {
  const database = await createMigratedDatabase("bench", "bench-postgres");
  await dropAbandonedDatabases(database.adminUrl);
  const databaseUrl = database.url;

  const credentialsFile = path.join(env.DATA_DIR, "bench-credentials.json");
  await writeFile(credentialsFile, JSON.stringify([BENCH_KEY]), { mode: 0o600 });
  const service = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: env.DATA_DIR,
    HOST: "127.0.0.1",
    PORT: 0,
    LEDGER_PORT: 0,
    SHUTDOWN_DRAIN_MS: 0,
  };
  const children: ReturnType<typeof startLedger>[] = [];
  const pids = new Map<string, number | undefined>();
  /** The server `start` makes on a free port, once healthy; its URL. */
  const startServer = async (start: (port: number) => ReturnType<typeof startLedger>) => {
    const port = await freePort();
    const child = start(port);
    children.push(child);
    const url = `http://127.0.0.1:${port}`;
    await waitForHealthy(`${url}/healthz`);
    pids.set(url, child.pid);
    return url;
  };
  const startLedgerOn = (url: string, profileName: string) =>
    startServer((port) =>
      startLedger(
        { ...service, DATABASE_URL: url, LEDGER_PORT: port },
        "quiet",
        { LEDGER_CREDENTIALS_FILE: credentialsFile },
        profilerArgs(profileName),
      ),
    );
  const ledgerUrl = await startLedgerOn(databaseUrl, "ledger");

  return {
    databaseUrl,
    ledgerUrl,
    async startKeptLedger(name) {
      const url = await keptDatabase(database.adminUrl, name);
      return { databaseUrl: url, ledgerUrl: await startLedgerOn(url, `ledger-${name}`) };
    },
    async startWeb(extraEnv = {}) {
      // A fresh clone has no production build yet (npm test and npm start make it; the bench may come first).
      if (await buildWebUnlessBuilt()) console.log("(built the web app's production build first)");
      return startServer((port) =>
        startWeb(
          { ...service, PORT: port },
          "quiet",
          { RATE_LIMIT_PER_MINUTE: "1000000000", PUBLIC_RATE_LIMIT_PER_MINUTE: "1000000000", ...extraEnv },
          profilerArgs("web"),
        ),
      );
    },
    pidOf: (url) => pids.get(url),
    async stop() {
      await Promise.all(children.map(stopProcess));
      await database.drop();
    },
  };
}

/**
 * `--cpu-prof` for a server when BENCH_CPU_PROFILE_DIR is set: each server
 * writes its profiles under `<dir>/<name>/` when it stops; the largest file
 * is the main thread's. Open it in Chrome DevTools, or summarise it with
 * `npx tsx bench/profile-summary.ts FILE`.
 */
export function profilerArgs(name: string): string[] {
  const directory = env.BENCH_CPU_PROFILE_DIR;
  if (!directory) return [];
  // Node's default file names (pid and thread id): the web app's document workers write their own.
  return ["--cpu-prof", `--cpu-prof-dir=${path.resolve(directory, name)}`];
}

/**
 * The database `name` on the bench's server, migrated. One whose applied
 * migration was edited since (allowed until a migration is released) is
 * dropped and made anew, so it has the schema on disk.
 */
async function keptDatabase(adminUrl: string, name: string): Promise<string> {
  if (name.startsWith("bench_")) throw new Error(`${name}: bench_* databases are dropped as abandoned`);
  const url = withDatabaseName(adminUrl, name);
  const create = () => adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const [existing] = await queryRows(adminUrl, `SELECT 1 FROM pg_database WHERE datname = '${name}'`);
  if (!existing) await create();
  try {
    await migrate(url);
  } catch (error) {
    if (!/was edited after it was applied/.test(String(error))) throw error;
    console.log(`(${name}: a migration changed since it was loaded; loading it anew)`);
    await adminQuery(adminUrl, `DROP DATABASE ${name} WITH (FORCE)`);
    await create();
    await migrate(url);
  }
  return url;
}

/** Databases of earlier runs that died before dropping theirs (their pid is in the name). */
async function dropAbandonedDatabases(adminUrl: string): Promise<void> {
  const names = await queryRows<{ datname: string }>(
    adminUrl,
    "SELECT datname FROM pg_database WHERE datname LIKE 'bench\\_%'",
  );
  for (const { datname } of names) {
    const pid = Number(datname.split("_")[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
