/**
 * A rolling restart: SIGTERM to a server in the middle of 32 streams of
 * writes over keep-alive connections. Every request sent before the signal
 * is answered, no write is committed without its answer having been sent
 * (SQL against what the clients saw), readiness is 503 while the server
 * drains, and the process exits after the drain.
 */
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createSignedHttpClient } from "../bench/signed-http-client.ts";
import { env } from "../scripts/env.ts";
import { startLedger, startWeb, stopProcess, waitForHealthy, type ServiceEnv } from "../scripts/processes.ts";
import { freePort } from "./free-port.ts";
import { ledgerClient } from "./ledger-client.ts";
import { FULL_KEY, REGION } from "./ledger-server.ts";
import { queryRows } from "./postgres-admin.ts";
import { newUser } from "./tokens.ts";

const DRAIN_MS = 2_000;
const STREAMS = 32;
let root: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "drain-"));
});

afterAll(async () => {
  await Promise.all(started.map((child) => stopProcess(child)));
  await rm(root, { recursive: true, force: true });
});

async function serviceEnv(): Promise<ServiceEnv> {
  return {
    DATABASE_URL: inject("databaseUrl"),
    DATA_DIR: env.DATA_DIR,
    HOST: "127.0.0.1",
    PORT: await freePort(),
    LEDGER_PORT: await freePort(),
    SHUTDOWN_DRAIN_MS: DRAIN_MS,
  };
}

interface Outcome {
  /** What the write is known by in the database: an idempotency key, an entry's name. */
  id: string;
  sentAt: number;
  status?: number;
  error?: string;
}

/**
 * STREAMS loops that write one after the other until the server refuses
 * connections; SIGTERM after a second of it; /healthz polled meanwhile.
 */
async function streamThroughShutdown(
  child: ChildProcess,
  baseUrl: string,
  write: (stream: number, seq: number) => { id: string; send: () => Promise<number> },
) {
  const outcomes: Outcome[] = [];
  const health: { sentAt: number; status: number; message: string | undefined }[] = [];
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once("exit", (code) => resolve({ code, at: Date.now() })),
  );
  let exitedYet = false;
  void exited.then(() => (exitedYet = true));

  const loops = Array.from({ length: STREAMS }, async (_, stream) => {
    for (let seq = 0; !exitedYet; seq += 1) {
      const { id, send } = write(stream, seq);
      const outcome: Outcome = { id, sentAt: Date.now() };
      outcomes.push(outcome);
      try {
        outcome.status = await send();
      } catch (error) {
        outcome.error = (error as Error).message;
        // Refused or reset: the listener is closing; try again until the process is gone.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  });

  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const signalAt = Date.now();
  child.kill("SIGTERM");
  const poller = (async () => {
    while (!exitedYet) {
      const sentAt = Date.now();
      const { status, message } = await fetch(`${baseUrl}/healthz`, {
        headers: { connection: "close" },
      }).then(
        async (r) => ({
          status: r.status,
          // A body cut by the closing listener still counts by its status.
          message: ((await r.json().catch(() => ({}))) as { message?: string }).message,
        }),
        () => ({ status: 0, message: undefined }),
      );
      if (status) health.push({ sentAt, status, message });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const exit = await exited;
  await Promise.all([...loops, poller]);
  return { outcomes, health, signalAt, exit };
}

function expectDrained(
  run: Awaited<ReturnType<typeof streamThroughShutdown>>,
  committed: Set<string>,
  writeStatus: number,
) {
  const { outcomes, health, signalAt, exit } = run;
  const before = outcomes.filter((o) => o.sentAt < signalAt);
  const during = outcomes.filter((o) => o.sentAt >= signalAt && o.status !== undefined);
  console.log(
    `${outcomes.length} writes: ${before.length} sent before SIGTERM, ${during.length} answered while draining, ` +
      `${outcomes.filter((o) => o.error).length} refused or reset after; ${committed.size} committed; exit ${exit.at - signalAt} ms after the signal`,
  );
  expect(
    before.filter((o) => o.status === undefined),
    "answered: every request sent before the signal",
  ).toEqual([]);
  expect(during.length, "served while draining").toBeGreaterThan(0);
  for (const outcome of outcomes) {
    if (outcome.status === writeStatus)
      expect(committed.has(outcome.id), `${outcome.id} answered`).toBe(true);
    else
      expect(
        committed.has(outcome.id),
        `${outcome.id} without its answer (${outcome.error ?? outcome.status})`,
      ).toBe(false);
  }
  const whileDraining = health.filter((h) => h.sentAt > signalAt + 50);
  expect(whileDraining.length, "readiness asked while draining").toBeGreaterThan(0);
  expect(whileDraining.map((h) => h.status).filter((s) => s !== 503)).toEqual([]);
  // Said as it is: the database is fine, the server is going.
  expect(new Set(whileDraining.map((h) => h.message))).toEqual(new Set(["the server is shutting down"]));
  expect(exit.code).toBe(0);
  expect(exit.at - signalAt).toBeGreaterThanOrEqual(DRAIN_MS);
}

describe("SIGTERM during 32 streams of writes", () => {
  it("ledger posts: answered before the signal, none written without its answer, readiness 503, exit after the drain", async () => {
    const service = await serviceEnv();
    const credentialsFile = path.join(root, "credentials.json");
    await writeFile(credentialsFile, JSON.stringify([FULL_KEY]));
    const child = startLedger(service, "quiet", {
      LEDGER_CREDENTIALS_FILE: credentialsFile,
      DATABASE_PREPARED_STATEMENTS: String(inject("preparedStatements")),
    });
    started.push(child);
    const baseUrl = `http://127.0.0.1:${service.LEDGER_PORT}`;
    await waitForHealthy(`${baseUrl}/healthz`);
    const setup = ledgerClient(baseUrl);
    const [cash, sales] = [await setup.account(), await setup.account()];
    const client = createSignedHttpClient(baseUrl, FULL_KEY, { region: REGION });
    const run = randomUUID().slice(0, 8);

    const result = await streamThroughShutdown(child, baseUrl, (stream, seq) => {
      const id = `drain-${run}-${stream}-${seq}`;
      return {
        id,
        send: async () =>
          (
            await client.request("POST", "/transactions", {
              idempotency_key: id,
              entries: [
                { account_id: cash, amount: 1 },
                { account_id: sales, amount: -1 },
              ],
            })
          ).status,
      };
    });
    client.close();
    const committed = await queryRows<{ key: string }>(
      inject("databaseUrl"),
      `SELECT idempotency_key AS key FROM ledger.transactions WHERE idempotency_key LIKE 'drain-${run}-%'`,
    );
    expectDrained(result, new Set(committed.map((r) => r.key)), 201);
  }, 60_000);

  it("resume creates with Idempotency-Key: answered before the signal, none written without its answer, readiness 503, exit after the drain", async () => {
    const service = await serviceEnv();
    const child = startWeb(service, "quiet", {
      DATABASE_PREPARED_STATEMENTS: String(inject("preparedStatements")),
    });
    started.push(child);
    const baseUrl = `http://127.0.0.1:${service.PORT}`;
    await waitForHealthy(`${baseUrl}/healthz`);
    const users = await Promise.all(Array.from({ length: STREAMS }, () => newUser()));
    const run = randomUUID().slice(0, 8);

    const result = await streamThroughShutdown(child, baseUrl, (stream, seq) => {
      const id = `drain-${run}-${stream}-${seq}`;
      return {
        id,
        send: async () =>
          (
            await fetch(`${baseUrl}/me/hobbies`, {
              method: "POST",
              headers: {
                authorization: users[stream]!.authorization,
                "content-type": "application/json",
                "idempotency-key": id,
              },
              body: JSON.stringify({ name: id }),
            })
          ).status,
      };
    });
    const committed = await queryRows<{ name: string }>(
      inject("databaseUrl"),
      `SELECT name FROM resume.hobbies WHERE name LIKE 'drain-${run}-%'`,
    );
    expectDrained(result, new Set(committed.map((r) => r.name)), 201);
  }, 60_000);
});
