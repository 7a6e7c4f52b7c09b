import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { queryRows as sql } from "../../../test/postgres-admin.ts";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type RunningPostgres } from "../src/embedded-postgres.ts";

const root = await mkdtemp(path.join(tmpdir(), "embedded-pg-"));
await chmod(root, 0o755); // the server runs as the "postgres" user when we are root
const directory = path.join(root, "postgres");

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * Runs the server in another process, writes a row, then kills that process
 * with SIGKILL, leaving its server orphaned. Resolves to the server's start time.
 */
async function startAndKill9(): Promise<string> {
  // `node --import tsx`, not the tsx CLI: the CLI would run the script in a child that SIGKILL misses.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "fixtures", "hold-embedded-postgres.ts"), directory],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`fixture exited early (${code})`)));
  });
  await sql(url, "INSERT INTO notes VALUES ('written before kill -9')");
  const [started] = await sql<{ t: string }>(url, "SELECT pg_postmaster_start_time()::text AS t");
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  return started!.t;
}

describe("embedded PostgreSQL", () => {
  it("initialises and starts on a fresh directory, then again on the existing one with its data", async () => {
    let server: RunningPostgres = await startEmbeddedPostgres({ directory, database: "app" });
    await sql(server.url, "CREATE TABLE notes (text TEXT)");
    await sql(server.url, "INSERT INTO notes VALUES ('first run')");
    await server.stop();

    server = await startEmbeddedPostgres({ directory, database: "app" });
    expect(await sql(server.url, "SELECT text FROM notes")).toEqual([{ text: "first run" }]);
    await server.stop();
  });

  it("starts again after its owner was killed with SIGKILL, keeping committed data", async () => {
    const orphanStarted = await startAndKill9();
    const server = await startEmbeddedPostgres({ directory, database: "app" });
    try {
      const [now] = await sql<{ t: string }>(server.url, "SELECT pg_postmaster_start_time()::text AS t");
      expect(now!.t, "the orphaned server was replaced by a fresh one").not.toBe(orphanStarted);
      expect(await sql(server.url, "SELECT text FROM notes ORDER BY text")).toEqual([
        { text: "first run" },
        { text: "written before kill -9" },
      ]);
    } finally {
      await server.stop();
    }
  });

  it("shares a server that another live process owns instead of starting a second one", async () => {
    const owner = await startEmbeddedPostgres({ directory, database: "app" });
    try {
      const second = await startEmbeddedPostgres({ directory, database: "app" });
      expect(second.url).toBe(owner.url);
      await second.stop(); // not the owner: must leave the server running
      expect(await sql(owner.url, "SELECT count(*)::int AS n FROM notes")).toEqual([{ n: 2 }]);
    } finally {
      await owner.stop();
    }
  });

  it("listens on a Unix-domain socket in its directory when asked, named by socketUrl (to a sharer too)", async () => {
    const owner = await startEmbeddedPostgres({ directory, database: "app", unixSocket: true });
    try {
      expect(owner.socketUrl).toBeDefined();
      expect(
        await sql(
          owner.socketUrl!,
          "SELECT inet_server_addr() IS NULL AS over_socket, count(*)::int AS n FROM notes",
        ),
      ).toEqual([{ over_socket: true, n: 2 }]);
      const second = await startEmbeddedPostgres({ directory, database: "app" });
      expect(second.socketUrl).toBe(owner.socketUrl);
      await second.stop();
    } finally {
      await owner.stop();
    }
    const tcpOnly = await startEmbeddedPostgres({ directory, database: "app" });
    try {
      expect(tcpOnly.socketUrl).toBeUndefined();
    } finally {
      await tcpOnly.stop();
    }
  });
});
