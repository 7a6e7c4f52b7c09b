import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./free-port.ts";

/** Debian's PgBouncer (`apt-get install pgbouncer`, which .ci/run does), if this machine has it. */
export const pgbouncerBinary = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((p) => existsSync(p));

export interface RunningPgBouncer {
  /** `databaseUrl` through PgBouncer. */
  url: string;
  stop(): Promise<void>;
}

/**
 * A real PgBouncer in transaction mode (a server connection per transaction,
 * not per client: no named prepared statements, no session state) in front of
 * `databaseUrl`'s server. The services send their timeouts as startup
 * parameters, which PgBouncer 1.18 refuses unless told to ignore them.
 * `poolSize`: server connections per database and user (`default_pool_size`).
 */
export async function startPgBouncer(
  databaseUrl: string,
  { poolSize = 20 }: { poolSize?: number } = {},
): Promise<RunningPgBouncer> {
  if (!pgbouncerBinary) throw new Error("pgbouncer is not installed (Debian: apt-get install pgbouncer)");
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username);
  const password = decodeURIComponent(target.password);
  const directory = await mkdtemp(path.join(tmpdir(), "pgbouncer-"));
  await chmod(directory, 0o755); // read by the "postgres" user when we are root
  const port = await freePort();
  const config = path.join(directory, "pgbouncer.ini");
  await writeFile(path.join(directory, "userlist.txt"), `"${user}" "${password}"\n`, { mode: 0o644 });
  await writeFile(
    config,
    `[databases]
* = host=${target.hostname} port=${target.port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = scram-sha-256
auth_file = ${path.join(directory, "userlist.txt")}
pool_mode = transaction
max_client_conn = 500
default_pool_size = ${poolSize}
ignore_startup_parameters = extra_float_digits,statement_timeout,lock_timeout,idle_in_transaction_session_timeout
`,
    { mode: 0o644 },
  );
  // PgBouncer refuses to run as root.
  const asUser = process.getuid?.() === 0 ? ["-u", "postgres"] : [];
  const child = spawn(pgbouncerBinary, [...asUser, config], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));

  const via = new URL(databaseUrl);
  via.hostname = "127.0.0.1";
  via.port = String(port);
  const url = via.toString();
  for (let waited = 0; ; waited += 100) {
    const client = new pg.Client({ connectionString: url });
    const ready = await client.connect().then(
      () => client.query("SELECT 1").then(() => true),
      () => false,
    );
    await client.end().catch(() => {});
    if (ready) break;
    if (child.exitCode !== null || waited > 10_000) throw new Error(`pgbouncer did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
