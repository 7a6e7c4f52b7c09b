import { env } from "../scripts/env.ts";
import { startWeb, stopProcess, waitForHealthy } from "../scripts/processes.ts";
import { freePort } from "./free-port.ts";

export interface WebServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * The web app's production build served by its server (apps/web/src/main.ts)
 * on a free port of 127.0.0.1 against `databaseUrl`, once `readyPath`
 * answers 200 (not /healthz for a database that is down on purpose). Free of
 * Vitest, so that Playwright's files start their servers with it too.
 */
export async function startProductionWeb(
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
  readyPath = "/healthz",
): Promise<WebServer> {
  const port = await freePort();
  const child = startWeb(
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: env.DATA_DIR,
      HOST: "127.0.0.1",
      PORT: port,
      LEDGER_PORT: 0,
      SHUTDOWN_DRAIN_MS: 0,
    },
    "quiet",
    extraEnv,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHealthy(`${url}${readyPath}`);
  return { url, stop: () => stopProcess(child) };
}
