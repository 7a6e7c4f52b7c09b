import { existsSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { repoRoot } from "../scripts/env.ts";
import { startProductionWeb, type WebServer } from "./production-web.ts";

export type { WebServer };

/**
 * The web app's production build (`next build`, which `npm test` runs first)
 * served by its server (apps/web/src/main.ts) on a free port against this run's database
 * (or `databaseUrl`: the same database through a proxy).
 */
export async function startWebServer(
  extraEnv: Record<string, string> = {},
  databaseUrl: string = inject("databaseUrl"),
): Promise<WebServer> {
  if (!existsSync(path.join(repoRoot, "apps", "web", ".next", "BUILD_ID"))) {
    throw new Error("apps/web has no production build: run `npm test`, which builds it first");
  }
  // Not /healthz: some tests run it against a database that is down on purpose.
  return startProductionWeb(
    databaseUrl,
    { DATABASE_PREPARED_STATEMENTS: String(inject("preparedStatements")), ...extraEnv },
    "/openapi.json",
  );
}
