/**
 * `npm start`: the database (embedded unless DATABASE_URL), migrations, the
 * production build (kept while the sources are unchanged), the servers'
 * bundles, then the web app on PORT and the ledger on LEDGER_PORT. Ctrl-C,
 * SIGTERM or SIGHUP stops all of it, PostgreSQL last; so does the end of the
 * `npm` that started it. While it is still starting, it stops at its next
 * step and starts no server.
 */
import path from "node:path";
import { resolveAuthSetup } from "@app/auth";
import { dataDirectory } from "@app/db/paths";
import { LEDGER_ACTIONS } from "@app/ledger";
import { loadCredentials } from "@app/sigv4";
import { developmentCredentialsFile } from "../apps/ledger/src/env.ts";
import { migrate, openDatabase } from "./database.ts";
import { env } from "./env.ts";
import {
  buildWebUnlessBuilt,
  bundleServers,
  run,
  serveWebBuild,
  startLedger,
  startWeb,
  stopProcess,
  waitForHealthy,
  waitForListening,
} from "./processes.ts";
import { isAlive, launchingProcesses } from "./launching-processes.ts";
import { ensurePortsFree, lockDataDir, StartRefused } from "./start-preflight.ts";

const step = (text: string) => console.log(`\n▶ ${text}`);
/** A path as the banner names it: from the working folder when inside it, else whole. */
const shownPath = (file: string) => {
  const relative = path.relative(process.cwd(), file);
  return relative === "" || relative.startsWith("..") ? file : relative;
};
/** `word` as one shell word, quoted when it needs to be. */
const shellWord = (word: string) =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
const fail = (message: string): never => {
  console.error(`\n✗ ${message}`);
  process.exit(1);
};

/**
 * A stop asked for by a signal or by the end of npm. Before the servers run,
 * the start stops at its next step (what it started so far stopped with it),
 * not after starting them; once they run, `onStop` stops everything.
 */
let stopRequested = false;
let onStop = () => {};
const requestStop = () => {
  stopRequested = true;
  onStop();
};
// `on`, not `once`: a second Ctrl-C must not end this process before PostgreSQL is stopped.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, requestStop);
// A signal to npm does not reach this process (launching-processes.ts): npm's end is the signal.
const launchers = launchingProcesses();
const firstParent = process.ppid;
setInterval(() => {
  if (stopRequested || (process.ppid === firstParent && launchers.every(isAlive))) return;
  console.error("npm start's terminal or npm ended; stopping");
  requestStop();
}, 500).unref();

/** Ends the start here when a stop was asked for, after stopping `database` if it runs. */
async function stopIfRequested(database?: { stop(): Promise<void> }) {
  if (!stopRequested) return;
  await database?.stop();
  process.exit(0);
}

try {
  const unlock = lockDataDir(env.DATA_DIR);
  process.on("exit", unlock);
  await ensurePortsFree(env.HOST, { PORT: env.PORT, LEDGER_PORT: env.LEDGER_PORT });
} catch (error) {
  if (error instanceof StartRefused) fail(error.message);
  throw error;
}

step("the Prisma client");
await run(process.execPath, ["--import", "tsx", "scripts/prisma-generate.ts"]);
await stopIfRequested();

step(
  env.DATABASE_URL
    ? "using DATABASE_URL"
    : `starting embedded PostgreSQL (${shownPath(path.join(env.DATA_DIR, "postgres"))})`,
);
const database = await openDatabase();
await stopIfRequested(database);
if (database.directory && database.directory !== path.join(env.DATA_DIR, "postgres")) {
  console.log(`the user postgres cannot enter this checkout: the cluster lives in ${database.directory}`);
}
try {
  const applied = await migrate(database.url);
  console.log(applied.length ? `applied migrations: ${applied.join(", ")}` : "database is up to date");
  step("the web app's production build");
  const built = await buildWebUnlessBuilt();
  if (!built) console.log("the sources are unchanged since the last build: using it");
  process.on("exit", serveWebBuild());
  step("the servers' bundles");
  bundleServers();
} catch (error) {
  await database.stop();
  fail((error as Error).message);
}
await stopIfRequested(database);

step("starting the web app and the ledger");
const service = {
  DATABASE_URL: database.url,
  DATA_DIR: env.DATA_DIR,
  HOST: env.HOST,
  PORT: env.PORT,
  LEDGER_PORT: env.LEDGER_PORT,
  SHUTDOWN_DRAIN_MS: env.SHUTDOWN_DRAIN_MS,
};
const children = [startWeb(service), startLedger(service)];
let stopped: Promise<never> | undefined;

/** Stops the servers, then PostgreSQL, then this process; called again, it is the same stop. */
function shutdown(code: number): Promise<never> {
  stopped ??= (async () => {
    await Promise.all(children.map(stopProcess));
    await database.stop();
    process.exit(code);
  })();
  return stopped;
}
onStop = () => void shutdown(0);
for (const child of children) {
  child.once("exit", (code) => {
    if (stopped) return;
    console.error(`a service exited (${code}); stopping`);
    void shutdown(1);
  });
}
// "Ready." is said of these servers, not of whatever else might answer on their ports: they
// listen on them first, and then answer their health checks.
const listening = await Promise.all(children.map(waitForListening)).then(
  () => true,
  () => false,
);
if (!listening) await shutdown(1);

const webUrl = `http://localhost:${env.PORT}`;
const ledgerUrl = `http://localhost:${env.LEDGER_PORT}`;
await Promise.all([waitForHealthy(`${webUrl}/healthz`), waitForHealthy(`${ledgerUrl}/healthz`)]).catch(
  (error: Error) => {
    console.error(`\n✗ ${error.message}; stopping`);
    return shutdown(1);
  },
);

const credentialsFile = env.LEDGER_CREDENTIALS_FILE ?? developmentCredentialsFile(env.DATA_DIR);
// The token command reads the local issuer's key from the data folder: this one, when it is not the default.
const tokenCommand = `${env.DATA_DIR === dataDirectory(undefined) ? "" : `DATA_DIR=${shellWord(shownPath(env.DATA_DIR))} `}npm run -s token -- --user alice`;
const [key] = (await loadCredentials(credentialsFile, LEDGER_ACTIONS)).values();
// The generated development key's secret is printed; a configured file's secrets stay in it (no terminal or log).
const secretShown = env.LEDGER_CREDENTIALS_FILE ? "<its secret, from the file>" : key?.secretAccessKey;
const auth = await resolveAuthSetup(
  { ...env, CLERK_PUBLISHABLE_KEY: env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY },
  env.DATA_DIR,
);
console.log(`
Ready.
  Web app      ${webUrl}            (health: ${webUrl}/healthz)
  Ledger       ${ledgerUrl}            (health: ${ledgerUrl}/healthz)
  Database     ${env.DATABASE_URL ? "DATABASE_URL" : `embedded; connection string in ${shownPath(path.join(env.DATA_DIR, "database-url"))}`}
  Editor       ${webUrl}/editor   (${auth.mode === "local" ? "local development sign-in" : `sign-in: ${auth.mode}`})
  Token        TOKEN=$(${tokenCommand})
               curl -H "Authorization: Bearer $TOKEN" "${webUrl}/me/resume?format=markdown"
  API docs     ${webUrl}/docs   (OpenAPI: ${webUrl}/openapi.json)
  Ledger key   ${key?.accessKeyId} (from ${shownPath(credentialsFile)})
               curl --aws-sigv4 "aws:amz:${env.LEDGER_REGION}:execute-api" --user "${key?.accessKeyId}:${secretShown}" ${ledgerUrl}/accounts
Press Ctrl-C to stop.`);
