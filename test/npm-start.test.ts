/**
 * `npm start` as a person runs it (the real `npm`, the embedded PostgreSQL
 * in a data folder of its own): a second start on the same checkout, a
 * foreign program on PORT or LEDGER_PORT, and SIGTERM or SIGHUP to `npm`.
 * Each refusal is one sentence and exit code 1, and leaves the running
 * instance serving; each stop leaves no process behind (`ps`).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env, repoRoot } from "../scripts/env.ts";
import { isAlive } from "../scripts/launching-processes.ts";
import { buildWebUnlessBuilt } from "../scripts/processes.ts";
import { freePort } from "./free-port.ts";

interface Started {
  npm: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  ports: { PORT: number; LEDGER_PORT: number };
}

/** Runs `npm start` on `dataDir` with ports of its own; `ports` overrides them. */
async function npmStart(
  dataDir: string,
  ports: Partial<Started["ports"]> = {},
  settings: Record<string, string> = {},
): Promise<Started> {
  const { DATABASE_URL: _unset, ...inherited } = process.env;
  const chosen = { PORT: await freePort(), LEDGER_PORT: await freePort(), ...ports };
  const npm = spawn("npm", ["start"], {
    cwd: repoRoot,
    env: {
      ...inherited,
      DATA_DIR: dataDir,
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      PORT: String(chosen.PORT),
      LEDGER_PORT: String(chosen.LEDGER_PORT),
      ...settings,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  npm.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
  return { npm, output: () => output, exited, ports: chosen };
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `pid` and every process below it, from `ps`. */
function processTree(pid: number): number[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) {
    for (const [child, parent] of rows) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

/** A refusal: exit code 1 within seconds, and one `✗` sentence as the last line, no stack trace. */
async function expectRefusal(started: Started, sentence: RegExp) {
  expect(await started.exited).toBe(1);
  const lines = started.output().trim().split("\n");
  expect(lines.at(-1)).toMatch(sentence);
  expect(started.output()).not.toMatch(/\n\s+at |Ready\.|▶/);
}

/** What a person's browser needs from the first instance: the health check, a page and one of its scripts. */
async function expectServing(port: number) {
  expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  const page = await fetch(`http://127.0.0.1:${port}/sign-in`);
  expect(page.status).toBe(200);
  const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(await page.text())?.[1];
  expect(script).toBeDefined();
  expect((await fetch(`http://127.0.0.1:${port}${script}`)).status).toBe(200);
}

const dataDirs: string[] = [];
async function dataDir(name: string) {
  // Inside the checkout's .data, which the embedded server's user can enter (a mkdtemp folder it cannot).
  const dir = path.join(env.DATA_DIR, `npm-start-test-${name}-${process.pid}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  dataDirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("npm start", () => {
  let first: Started;
  let firstDir: string;

  beforeAll(async () => {
    await buildWebUnlessBuilt(); // `npm test` has built it: then this does nothing
    firstDir = await dataDir("first");
    first = await npmStart(firstDir);
    await waitFor(() => first.output().includes("Ready."), "the first instance's Ready.");
  }, 180_000);

  afterAll(async () => {
    if (first.npm.exitCode === null) {
      first.npm.kill("SIGTERM");
      await first.exited;
    }
  });

  it("says Ready. once, after both servers listen, and a start with unchanged sources reuses the build", async () => {
    expect(first.output().match(/Ready\./g)).toHaveLength(1);
    expect(first.output()).toContain("the sources are unchanged since the last build: using it");
    expect((await fetch(`http://127.0.0.1:${first.ports.LEDGER_PORT}/healthz`)).status).toBe(200);
    await expectServing(first.ports.PORT);
  });

  it("the banner's token command, run as printed, gives a token the web app takes, and names the data folder's files", async () => {
    const shownDir = path.relative(repoRoot, firstDir);
    const command = /TOKEN=\$\((.+)\)\n/.exec(first.output())?.[1];
    expect(command).toBe(`DATA_DIR=${shownDir} npm run -s token -- --user alice`);
    const { DATA_DIR: _unset, ...inherited } = process.env;
    const token = execFileSync("sh", ["-c", command!], { cwd: repoRoot, env: inherited, encoding: "utf8" });
    const answer = await fetch(`http://127.0.0.1:${first.ports.PORT}/me/resume`, {
      headers: { authorization: `Bearer ${token.trim()}` },
    });
    expect(answer.status).toBe(200);
    expect(first.output()).toContain(`starting embedded PostgreSQL (${shownDir}/postgres)`);
    expect(first.output()).toContain(`connection string in ${shownDir}/database-url`);
    // The generated development key, secret and all, for the curl line to work as printed.
    const [development] = JSON.parse(
      await readFile(path.join(firstDir, "ledger-credentials.json"), "utf8"),
    ) as {
      secretAccessKey: string;
    }[];
    expect(first.output()).toContain(`:${development!.secretAccessKey}"`);
  });

  it("a second start on the same checkout ends at once, names the running one, and touches nothing of it", async () => {
    const before = processTree(first.npm.pid!);
    const startedAt = Date.now();
    const second = await npmStart(firstDir);
    await expectRefusal(
      second,
      new RegExp(`^✗ npm start is already running on this checkout's data \\(pid \\d+\\)`),
    );
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    expect(before.every(isAlive)).toBe(true);
    await expectServing(first.ports.PORT);
  });

  it("a start on other data does not build under the running one when the sources changed", async () => {
    const before = processTree(first.npm.pid!);
    const otherDir = await dataDir("other");
    // A public setting is part of what the build is made from: with another value it would be built again.
    const other = await npmStart(otherDir, {}, { NEXT_PUBLIC_NPM_START_TEST: "changed" });
    expect(await other.exited).toBe(1);
    expect(other.output().trim().split("\n").at(-1)).toMatch(
      /^✗ npm start \(pid \d+\) serves this checkout's web build, and the sources changed/,
    );
    expect(other.output()).not.toMatch(/\n\s+at |Ready\.|next build|Creating an optimized/);
    // Its own PostgreSQL, started before the build step, is stopped again.
    expect(existsSync(path.join(otherDir, "postgres", "postmaster.pid"))).toBe(false);
    expect(before.every(isAlive)).toBe(true);
    await expectServing(first.ports.PORT);
  });

  for (const setting of ["PORT", "LEDGER_PORT"] as const) {
    it(`a foreign program on ${setting} ends the start at once with the port's name, and keeps its port`, async () => {
      const foreign = net.createServer((socket) =>
        socket.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"),
      );
      const port = await freePort();
      await new Promise<void>((resolve) => foreign.listen(port, "0.0.0.0", resolve));
      try {
        const started = await npmStart(await dataDir(setting), { [setting]: port });
        await expectRefusal(
          started,
          new RegExp(
            `^✗ port ${port} \\(${setting}\\) is in use by another program; stop it, or choose a free port`,
          ),
        );
        expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).text()).toBe("ok");
      } finally {
        foreign.close();
      }
    });
  }

  it("npm ended while the start is starting PostgreSQL: it stops there, PostgreSQL included, and starts no server", async () => {
    const dir = await dataDir("early-end");
    const started = await npmStart(dir);
    await waitFor(() => started.output().includes("▶ starting embedded PostgreSQL"), "PostgreSQL's start");
    const tree = processTree(started.npm.pid!);
    started.npm.kill("SIGTERM");
    await waitFor(() => !tree.some(isAlive), "every process to end", 60_000);
    expect(started.output()).toContain("npm start's terminal or npm ended; stopping");
    expect(started.output()).not.toContain("starting the web app");
    expect(existsSync(path.join(dir, "postgres", "postmaster.pid"))).toBe(false);
  }, 120_000);

  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    it(`${signal} to npm stops every process it started, PostgreSQL included`, async () => {
      const dir = signal === "SIGTERM" ? firstDir : await dataDir(signal);
      // The second start on keys of its own: their secret stays in their file, off the terminal.
      const configured = {
        accessKeyId: "AKIACONFIGUREDKEY1",
        secretAccessKey: `secret-${crypto.randomUUID()}`,
      };
      const keysFile = path.join(dir, "configured-keys.json");
      if (signal === "SIGHUP") {
        const keys = [{ ...configured, principal: "ops", actions: ["ledger:Read"] }];
        await writeFile(keysFile, JSON.stringify(keys));
      }
      const started =
        signal === "SIGTERM" ? first : await npmStart(dir, {}, { LEDGER_CREDENTIALS_FILE: keysFile });
      await waitFor(() => started.output().includes("Ready."), "Ready.");
      const postmasterPid = Number(
        (await readFile(path.join(dir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0],
      );
      const tree = processTree(started.npm.pid!);
      expect(tree).toContain(postmasterPid);
      expect(tree.length).toBeGreaterThanOrEqual(5); // npm, its shell, start.ts, two servers, PostgreSQL

      started.npm.kill(signal);
      await waitFor(() => !tree.some(isAlive), "every process to end", 60_000);
      expect(existsSync(path.join(dir, "postgres", "postmaster.pid"))).toBe(false);
      expect(existsSync(path.join(dir, "npm-start.pid"))).toBe(false);
      expect(started.output()).toMatch(/"msg":"drained"/);
      if (signal === "SIGHUP") {
        expect(started.output()).toContain(`Ledger key   ${configured.accessKeyId}`);
        expect(started.output()).not.toContain(configured.secretAccessKey);
      }
    }, 120_000);
  }
});
