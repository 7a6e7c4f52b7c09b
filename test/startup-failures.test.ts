/**
 * A server that cannot start ends at once, with exit code 1 and one fatal log
 * line that says what is wrong, and nothing on stderr (no stack trace):
 * whether the setting is read before Next.js is prepared or after it (Next.js
 * would keep a process alive that never listens). An empty setting counts as
 * unset: apps/ledger/test/env.test.ts.
 */
import { generateKeyPairSync } from "node:crypto";
import net from "node:net";
import { inject } from "vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "../scripts/env.ts";
import { startLedger, startWeb, stopProcess, waitForHealthy } from "../scripts/processes.ts";
import { freePort } from "./free-port.ts";

/** An RSA public key as PKCS#1 (-----BEGIN RSA PUBLIC KEY-----), which the token verifier cannot import. */
const PKCS1_PUBLIC_KEY = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "pkcs1", format: "pem" },
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
}).publicKey;

/** A port another program holds. */
let held: net.Server;
let heldPort: number;

beforeAll(async () => {
  heldPort = await freePort();
  held = net.createServer();
  await new Promise<void>((resolve) => held.listen(heldPort, "127.0.0.1", resolve));
});

afterAll(() => new Promise<void>((resolve) => held.close(() => resolve())));

/** Starts `service` with `settings` and waits for it to end: its exit code, stdout lines and stderr. */
async function failedStart(service: "ledger" | "web", settings: Record<string, string>) {
  const start = service === "ledger" ? startLedger : startWeb;
  const child = start(
    {
      DATABASE_URL: inject("databaseUrl"),
      DATA_DIR: env.DATA_DIR,
      HOST: "127.0.0.1",
      PORT: await freePort(),
      LEDGER_PORT: await freePort(),
      SHUTDOWN_DRAIN_MS: 0,
    },
    "captured",
    settings,
  );
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const lines = stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: string; msg: string });
  return { code, fatal: lines.filter((line) => line.level === "fatal"), stderr };
}

describe("a server that cannot start", () => {
  it.each([
    [
      "ledger",
      { DATABASE_POOL_SIZE: "abc" },
      /^cannot start: invalid ledger configuration: DATABASE_POOL_SIZE: /,
    ],
    ["ledger", { LOG_LEVEL: "verbose", LEDGER_PORT: "99999" }, /LOG_LEVEL: .*; LEDGER_PORT: /],
    [
      "ledger",
      { LEDGER_CREDENTIALS_FILE: "/nonexistent/credentials.json" },
      /^cannot start: invalid ledger configuration: LEDGER_CREDENTIALS_FILE: cannot read \/nonexistent\/credentials\.json: there is no such file$/,
    ],
    ["ledger", { LEDGER_METRICS_PORT: "HELD" }, /port \d+ \(LEDGER_METRICS_PORT\) is in use/],
    ["web", { PUBLIC_URL: "ftp://x" }, /^cannot start: invalid web configuration: PUBLIC_URL: /],
    // Before, these started: a scheme-less address as a URL of scheme "db.example", answering 503 for ever;
    // and the identity provider's settings failed with a stack naming neither.
    [
      "web",
      { DATABASE_URL: "db.example:5432" },
      /^cannot start: invalid web configuration: DATABASE_URL: a postgresql:\/\/ URL$/,
    ],
    [
      "ledger",
      { DATABASE_URL: "db.example:5432" },
      /^cannot start: invalid ledger configuration: DATABASE_URL: a postgresql:\/\/ URL$/,
    ],
    [
      "web",
      { AUTH_JWKS_URL: "idp.example/jwks", AUTH_ISSUER: "https://idp.example", AUTH_AUDIENCE: "resume-api" },
      /^cannot start: invalid web configuration: AUTH_JWKS_URL: an absolute http\(s\) URL$/,
    ],
    [
      "web",
      { AUTH_PUBLIC_KEY: "garbage", AUTH_ISSUER: "https://idp.example", AUTH_AUDIENCE: "resume-api" },
      /^cannot start: invalid web configuration: AUTH_PUBLIC_KEY: a PEM public key/,
    ],
    // A key Node reads but the verifier does not (PKCS#1): refused at start, not at the first token.
    [
      "web",
      { AUTH_PUBLIC_KEY: PKCS1_PUBLIC_KEY, AUTH_ISSUER: "https://idp.example", AUTH_AUDIENCE: "resume-api" },
      /^cannot start: invalid web configuration: AUTH_PUBLIC_KEY: a PEM public key/,
    ],
    ["web", { AUTH_JWKS_URL: "https://idp.example/jwks" }, /AUTH_ISSUER must be set/],
    // An issuer named with no key would otherwise start the local sign-in (anyone as anyone) on loopback.
    [
      "web",
      { AUTH_ISSUER: "https://idp.example", AUTH_AUDIENCE: "resume-api" },
      /AUTH_ISSUER is set but no identity provider is: set AUTH_JWKS_URL/,
    ],
    ["web", { AUTH_AUDIENCE: "resume-api" }, /AUTH_AUDIENCE is set but no identity provider is/],
    [
      "web",
      { NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: "garbage" },
      /NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: not a Clerk/,
    ],
    ["web", { METRICS_PORT: "HELD" }, /port \d+ \(METRICS_PORT\) is in use/],
    // The local sign-in (no identity provider set), where anyone signs in as anyone, on every address.
    [
      "web",
      { HOST: "0.0.0.0" },
      /HOST 0\.0\.0\.0 is reached from other machines.*LOCAL_SIGN_IN_ON_NETWORK=true/,
    ],
  ] as const)(
    "%s with %j ends with exit code 1 and one line saying so",
    async (service, settings, says) => {
      const withPort = Object.fromEntries(
        Object.entries(settings).map(([name, value]) => [name, value === "HELD" ? String(heldPort) : value]),
      );
      const { code, fatal, stderr } = await failedStart(service, withPort);
      expect(code).toBe(1);
      expect(fatal.map((line) => line.msg)).toEqual([expect.stringMatching(says)]);
      expect(stderr).toBe("");
    },
    60_000,
  );
});

describe("the local sign-in on a network", () => {
  it("serves every address when LOCAL_SIGN_IN_ON_NETWORK=true says the network is trusted", async () => {
    const port = await freePort();
    const child = startWeb(
      {
        DATABASE_URL: inject("databaseUrl"),
        DATA_DIR: env.DATA_DIR,
        HOST: "0.0.0.0",
        PORT: port,
        LEDGER_PORT: await freePort(),
        SHUTDOWN_DRAIN_MS: 0,
      },
      "quiet",
      { LOCAL_SIGN_IN_ON_NETWORK: "true" },
    );
    try {
      await waitForHealthy(`http://127.0.0.1:${port}/healthz`);
    } finally {
      await stopProcess(child);
    }
  }, 60_000);
});
