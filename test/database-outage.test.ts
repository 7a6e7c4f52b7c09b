import type { ChildProcess } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, migrationsDirectory } from "@app/db";
import { startEmbeddedPostgres, type RunningPostgres } from "@app/db/embedded-postgres";
import { env, repoRoot } from "../scripts/env.ts";
import { startLedger, startWeb, stopProcess, waitForHealthy } from "../scripts/processes.ts";
import { freePort } from "./free-port.ts";
import { httpClient } from "./http-client.ts";
import { ledgerClient } from "./ledger-client.ts";
import { FULL_KEY } from "./ledger-server.ts";
import { newUser } from "./tokens.ts";

/**
 * Both services on a PostgreSQL of their own, which the test stops and starts
 * again while they take requests.
 */
let root: string;
let postgres: RunningPostgres;
let databasePort: number;
const children: ChildProcess[] = [];
let webUrl: string;
let ledgerUrl: string;

const startDatabase = () =>
  startEmbeddedPostgres({
    directory: path.join(root, "postgres"),
    preferredPort: databasePort,
    database: "app",
  });

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "outage-"));
  await chmod(root, 0o755); // the server runs as the "postgres" user when we are root
  databasePort = await freePort();
  postgres = await startDatabase();
  await migrateDatabase(postgres.url, migrationsDirectory(repoRoot));

  const credentialsFile = path.join(root, "credentials.json");
  await writeFile(credentialsFile, JSON.stringify([FULL_KEY]));
  const [webPort, ledgerPort] = [await freePort(), await freePort()];
  const service = {
    DATABASE_URL: postgres.url,
    DATA_DIR: env.DATA_DIR,
    HOST: "127.0.0.1",
    PORT: webPort,
    LEDGER_PORT: ledgerPort,
    SHUTDOWN_DRAIN_MS: 0,
  };
  children.push(
    startWeb(service, "quiet"),
    startLedger(service, "quiet", { LEDGER_CREDENTIALS_FILE: credentialsFile }),
  );
  webUrl = `http://127.0.0.1:${webPort}`;
  ledgerUrl = `http://127.0.0.1:${ledgerPort}`;
  await Promise.all([waitForHealthy(`${webUrl}/healthz`), waitForHealthy(`${ledgerUrl}/healthz`)]);
});

afterAll(async () => {
  await Promise.all(children.map(stopProcess));
  await postgres?.stop();
  await rm(root, { recursive: true, force: true });
});

describe("PostgreSQL stops and comes back", () => {
  it("answers 503 with the error body within 2 s while it is down, and serves again within 5 s of its return", async () => {
    const resume = httpClient(webUrl, { authorization: (await newUser()).authorization });
    const ledger = ledgerClient(ledgerUrl);
    const account = await ledger.account();
    const calls = {
      "GET /me/resume": () => resume.get("/me/resume"),
      "POST /me/hobbies": () => resume.post("/me/hobbies", { name: "outage" }),
      "GET /accounts/{id}/balance": () => ledger.get(`/accounts/${account}/balance`),
      "POST /accounts": () => ledger.post("/accounts", { name: "outage", type: "asset", currency: "USD" }),
    };
    for (const [name, call] of Object.entries(calls)) expect((await call()).status, name).toBeLessThan(300);

    await postgres.stop();
    for (const [name, call] of Object.entries(calls)) {
      const started = Date.now();
      const result = await call();
      expect(Date.now() - started, name).toBeLessThan(2_000);
      expect(result.status, name).toBe(503);
      expect(result.body, name).toEqual({
        statusCode: 503,
        error: "SERVICE_UNAVAILABLE",
        message: expect.any(String),
      });
      expect(result.text, name).not.toMatch(/\bat .+:\d+|ECONNREFUSED|prisma/i);
    }

    postgres = await startDatabase();
    const back = Date.now();
    for (const [name, call] of Object.entries(calls)) {
      let status = 0;
      while (Date.now() - back < 5_000) {
        status = (await call()).status;
        if (status < 300) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status, `${name} after PostgreSQL came back`).toBeLessThan(300);
    }
  });
});
