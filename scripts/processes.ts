import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ListeningMessage } from "@app/service";
import { digestOfInputs, isMadeFrom, recordMadeFrom } from "./build-inputs.ts";
import { repoRoot } from "./env.ts";
import { serverBundle } from "./server-bundles.ts";
import { isStartProcess, StartRefused } from "./start-preflight.ts";

const require = createRequire(import.meta.url);
const webDir = path.join(repoRoot, "apps", "web");
const nextBin = require.resolve("next/dist/bin/next", { paths: [webDir] });

export interface ServiceEnv {
  DATABASE_URL: string;
  DATA_DIR: string;
  HOST: string;
  PORT: number;
  LEDGER_PORT: number;
  /** How long the servers keep serving after SIGTERM (docs/operations.md, "Shutdown"); tests that do not watch a shutdown say 0. */
  SHUTDOWN_DRAIN_MS: number;
}

/**
 * "quiet" keeps only stderr (errors), for tests and benchmarks; "piped" gives
 * the caller the child's stdout (its JSON log lines), which it must read: a
 * pipe that nobody reads would block the child once full; "captured" its
 * stderr too. Every server also
 * gets an IPC channel: it says on it when it listens (`waitForListening`), and
 * shuts down when it closes, so no server outlives the process that started it.
 */
type Stdio = "inherit" | "quiet" | "piped" | "captured";
const STDIO: Record<Stdio, StdioOptions> = {
  inherit: ["inherit", "inherit", "inherit", "ipc"],
  quiet: ["ignore", "ignore", "inherit", "ipc"],
  piped: ["ignore", "pipe", "inherit", "ipc"],
  captured: ["ignore", "pipe", "pipe", "ipc"],
};
const stdioOf = (stdio: Stdio): StdioOptions => STDIO[stdio];

/** No tool phones home: the machines this runs on may have no internet. */
const quiet = { NEXT_TELEMETRY_DISABLED: "1", TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };

function childEnv(service: ServiceEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...Object.fromEntries(Object.entries(service).map(([k, v]) => [k, String(v)])),
    ...quiet,
    ...extra,
  };
}

/** Runs a command to completion, its output passed through; rejects on failure. */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: "inherit",
      cwd: options.cwd ?? repoRoot,
      env: { ...quiet, ...(options.env ?? process.env) },
    });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(command)} ${args.join(" ")} failed (${signal ?? code})`)),
    );
  });
}

/** Where a build records the digest of what it was made from. */
const webBuildStamp = path.join(webDir, ".next", "inputs-digest");

/** What the web app's build is made from: its sources, the packages', the locked dependencies and the public settings Next.js writes into the pages. */
function webBuildDigest(): string {
  const publicSettings = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name.startsWith("NEXT_PUBLIC_")),
  );
  // The Node version too: a build is made again, and so checked, on each Node line it runs on.
  return digestOfInputs(["apps/web", "packages", "package-lock.json", "tsconfig.base.json"], {
    ...publicSettings,
    NODE_VERSION: process.version,
  });
}

/** One empty file per `npm start` serving the build, named by its pid. */
const servedByDir = path.join(webDir, ".next", "served-by");

/** Marks the web build as served by this process until the returned function is called. */
export function serveWebBuild(): () => void {
  mkdirSync(servedByDir, { recursive: true });
  const marker = path.join(servedByDir, String(process.pid));
  writeFileSync(marker, "");
  return () => rmSync(marker, { force: true });
}

/**
 * The production build of the web app. Never under a running `npm start`
 * of this checkout (another data folder's): a build replaces the files its
 * pages load, and they would answer 500.
 */
export async function buildWeb(): Promise<void> {
  const serving = existsSync(servedByDir) ? readdirSync(servedByDir).map(Number).filter(isStartProcess) : [];
  if (serving.length > 0) {
    throw new StartRefused(
      `npm start (pid ${serving.join(", ")}) serves this checkout's web build, and the sources changed: ` +
        "building again would break its pages; stop it first",
    );
  }
  const digest = webBuildDigest();
  await run(process.execPath, [nextBin, "build"], {
    cwd: webDir,
    env: { ...process.env, NODE_ENV: "production" },
  });
  recordMadeFrom(webBuildStamp, digest);
}

/** The production build, unless the one there was made from the same sources; true when it built. */
export async function buildWebUnlessBuilt(): Promise<boolean> {
  if (isMadeFrom(webBuildStamp, webBuildDigest())) return false;
  await buildWeb();
  return true;
}

/** What the servers run (scripts/server-bundles.ts); the web app's document worker is bundled beside it. */
const webServerBundle = () =>
  serverBundle("web", ["apps/web/src/main.ts", "apps/web/src/api/document-worker.ts"]);
const ledgerServerBundle = () => serverBundle("ledger", ["apps/ledger/src/main.ts"]);

/** Both servers' bundles, made (or found) before they are started: a source that does not build throws here. */
export function bundleServers(): void {
  webServerBundle();
  ledgerServerBundle();
}

export function startWeb(
  service: ServiceEnv,
  stdio: Stdio = "inherit",
  extraEnv: Record<string, string> = {},
  nodeArgs: string[] = [],
): ChildProcess {
  return startNodeService(webDir, [...nodeArgs, webServerBundle()], service, stdio, extraEnv);
}

export function startLedger(
  service: ServiceEnv,
  stdio: Stdio = "inherit",
  extraEnv: Record<string, string> = {},
  nodeArgs: string[] = [],
): ChildProcess {
  return startNodeService(repoRoot, [...nodeArgs, ledgerServerBundle()], service, stdio, extraEnv);
}

/**
 * V8's semi-spaces (where new objects live) at 32 MiB instead of 16: a server allocates
 * per request and frees it all, and with the larger space a scavenge happens
 * half as often (ledger posts: about 5% more per second, for at most 48 MiB
 * more memory when busy).
 */
export const SERVER_NODE_ARGS = ["--max-semi-space-size=32"];

/** A production server as a child `node` process with the service's environment. */
function startNodeService(
  cwd: string,
  args: string[],
  service: ServiceEnv,
  stdio: Stdio,
  extraEnv: Record<string, string>,
): ChildProcess {
  return spawn(process.execPath, [...SERVER_NODE_ARGS, ...args], {
    cwd,
    stdio: stdioOf(stdio),
    env: childEnv(service, { NODE_ENV: "production", ...extraEnv }),
  });
}

/** Resolves once the server `child` listens on its port; rejects if it exits first. */
export function waitForListening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      reject(new Error(`a server exited before it listened (${signal ?? code})`));
    child.once("exit", onExit);
    child.on("message", function onMessage(message: ListeningMessage) {
      if (message?.type !== "listening") return;
      child.off("message", onMessage);
      child.off("exit", onExit);
      resolve();
    });
  });
}

/** Resolves once `url` answers 200, rejects after `timeoutMs`. */
export async function waitForHealthy(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not become healthy within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** How long a stopped server may take: its drain (SHUTDOWN_DRAIN_MS) and its slowest request. */
const STOP_TIMEOUT_MS = 60_000;

/** Sends SIGTERM and waits for the process to exit after its drain (SIGKILL after STOP_TIMEOUT_MS). */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
