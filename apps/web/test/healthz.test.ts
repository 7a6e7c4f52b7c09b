import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { env, repoRoot } from "../../../scripts/env.ts";
import { startWeb, stopProcess, waitForHealthy } from "../../../scripts/processes.ts";
import { freePort } from "../../../test/free-port.ts";

/** The production build (`next build`, run by `npm test` first) served by `next start`. */
let web: ChildProcess;
let baseUrl: string;

beforeAll(async () => {
  if (!existsSync(path.join(repoRoot, "apps", "web", ".next", "BUILD_ID"))) {
    throw new Error("apps/web has no production build: run `npm test`, which builds it first");
  }
  const port = await freePort();
  web = startWeb(
    {
      DATABASE_URL: inject("databaseUrl"),
      DATA_DIR: env.DATA_DIR,
      HOST: "127.0.0.1",
      PORT: port,
      LEDGER_PORT: 0,
    },
    "pipe",
  );
  baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealthy(`${baseUrl}/healthz`, 30_000);
});

afterAll(async () => {
  if (web) await stopProcess(web);
});

describe("web app", () => {
  it("GET /healthz answers 200 when the database answers", async () => {
    const response = await fetch(`${baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("serves the local issuer's JWKS without private key material", async () => {
    const response = await fetch(`${baseUrl}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    const { keys } = (await response.json()) as { keys: Record<string, string>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256" });
    expect(keys[0]).not.toHaveProperty("d");
  });
});
