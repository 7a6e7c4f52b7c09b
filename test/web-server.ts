import { existsSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { env, repoRoot } from "../scripts/env.ts";
import { startWeb, stopProcess, waitForHealthy } from "../scripts/processes.ts";
import { freePort } from "./free-port.ts";

export interface WebServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * The web app's production build (`next build`, which `npm test` runs first)
 * served by its server (apps/web/src/main.ts) on a free port against this run's database.
 */
export async function startWebServer(extraEnv: Record<string, string> = {}): Promise<WebServer> {
  if (!existsSync(path.join(repoRoot, "apps", "web", ".next", "BUILD_ID"))) {
    throw new Error("apps/web has no production build: run `npm test`, which builds it first");
  }
  const port = await freePort();
  const child = startWeb(
    {
      DATABASE_URL: inject("databaseUrl"),
      DATA_DIR: env.DATA_DIR,
      HOST: "127.0.0.1",
      PORT: port,
      LEDGER_PORT: 0,
      SHUTDOWN_DRAIN_MS: 0,
    },
    "quiet",
    { DATABASE_PREPARED_STATEMENTS: String(inject("preparedStatements")), ...extraEnv },
  );
  const url = `http://127.0.0.1:${port}`;
  // Not /healthz: some tests run it against a database that is down on purpose.
  await waitForHealthy(`${url}/openapi.json`, 30_000);
  return { url, stop: () => stopProcess(child) };
}
