/**
 * `npm start`: the database (embedded unless DATABASE_URL), migrations, the
 * production build, then the web app on PORT and the ledger on LEDGER_PORT.
 * Ctrl-C stops all of it.
 */
import path from "node:path";
import { resolveAuthSetup } from "@app/auth";
import { LEDGER_ACTIONS } from "@app/ledger";
import { loadCredentials } from "@app/sigv4";
import { developmentCredentialsFile } from "../apps/ledger/src/env.ts";
import { migrate, openDatabase } from "./database.ts";
import { env } from "./env.ts";
import { buildWeb, run, startLedger, startWeb, stopProcess, waitForHealthy } from "./processes.ts";

const step = (text: string) => console.log(`\n▶ ${text}`);

step("generating the Prisma client");
await run(process.execPath, ["--import", "tsx", "scripts/prisma-generate.ts"]);

step(env.DATABASE_URL ? "using DATABASE_URL" : "starting embedded PostgreSQL (.data/postgres)");
const database = await openDatabase();
if (database.directory && database.directory !== path.join(env.DATA_DIR, "postgres")) {
  console.log(`the user postgres cannot enter this checkout: the cluster lives in ${database.directory}`);
}
try {
  const applied = await migrate(database.url);
  console.log(applied.length ? `applied migrations: ${applied.join(", ")}` : "database is up to date");
  step("building the web app (next build)");
  await buildWeb();
} catch (error) {
  console.error(`\n✗ ${(error as Error).message}`);
  await database.stop();
  process.exit(1);
}

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
let stopping = false;

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  await Promise.all(children.map(stopProcess));
  await database.stop();
  process.exit(code);
}
process.once("SIGINT", () => void shutdown(0));
process.once("SIGTERM", () => void shutdown(0));
for (const child of children) {
  child.once("exit", (code) => {
    if (!stopping) {
      console.error(`a service exited (${code}); stopping`);
      void shutdown(1);
    }
  });
}

const webUrl = `http://localhost:${env.PORT}`;
const ledgerUrl = `http://localhost:${env.LEDGER_PORT}`;
await Promise.all([waitForHealthy(`${webUrl}/healthz`), waitForHealthy(`${ledgerUrl}/healthz`)]);

const credentialsFile = env.LEDGER_CREDENTIALS_FILE ?? developmentCredentialsFile(env.DATA_DIR);
const [key] = (await loadCredentials(credentialsFile, LEDGER_ACTIONS)).values();
const auth = await resolveAuthSetup(
  { ...env, CLERK_PUBLISHABLE_KEY: env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY },
  env.DATA_DIR,
);
console.log(`
Ready.
  Web app      ${webUrl}            (health: ${webUrl}/healthz)
  Ledger       ${ledgerUrl}            (health: ${ledgerUrl}/healthz)
  Database     ${env.DATABASE_URL ? "DATABASE_URL" : "embedded; connection string in .data/database-url"}
  Editor       ${webUrl}/editor   (${auth.mode === "local" ? "local development sign-in" : `sign-in: ${auth.mode}`})
  Token        TOKEN=$(npm run -s token -- --user alice)
               curl -H "Authorization: Bearer $TOKEN" "${webUrl}/me/resume?format=markdown"
  API docs     ${webUrl}/docs   (OpenAPI: ${webUrl}/openapi.json)
  Ledger key   ${key?.accessKeyId} (from ${path.relative(process.cwd(), credentialsFile)})
               curl --aws-sigv4 "aws:amz:${env.LEDGER_REGION}:execute-api" --user "${key?.accessKeyId}:${key?.secretAccessKey}" ${ledgerUrl}/accounts
Press Ctrl-C to stop.`);
