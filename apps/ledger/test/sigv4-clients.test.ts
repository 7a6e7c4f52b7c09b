import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignedHttpClient } from "../../../bench/signed-http-client.ts";
import { ledgerClient } from "../../../test/ledger-client.ts";
import { FULL_KEY, REGION, startLedgerServer, type LedgerServer } from "../../../test/ledger-server.ts";

/** Three independent SigV4 implementations sign requests the ledger accepts. */
let ledger: LedgerServer;
let usd: string;
let cash: string;

beforeAll(async () => {
  ledger = await startLedgerServer();
  const client = ledgerClient(ledger.url);
  usd = await client.account("USD", "income");
  cash = await client.account("USD", "asset");
});

afterAll(async () => {
  await ledger?.stop();
});

const run = promisify(execFile);

/** Debian's curl with its built-in SigV4 signer. */
async function curl(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const args = [
    "-s",
    "-w",
    "\n%{http_code}",
    "-X",
    method,
    "--aws-sigv4",
    `aws:amz:${REGION}:execute-api`,
    "--user",
    `${FULL_KEY.accessKeyId}:${FULL_KEY.secretAccessKey}`,
  ];
  if (body !== undefined)
    args.push("-H", "content-type: application/json", "--data-binary", JSON.stringify(body));
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  const { stdout } = await run("curl", [...args, `${ledger.url}${path}`]);
  const cut = stdout.lastIndexOf("\n");
  return {
    status: Number(stdout.slice(cut + 1)),
    body: JSON.parse(stdout.slice(0, cut)) as Record<string, unknown>,
  };
}

/** The AWS SDK's own signer. */
async function smithy(method: string, path: string, body?: unknown) {
  const url = new URL(`${ledger.url}${path}`);
  const signer = new SignatureV4({
    credentials: { accessKeyId: FULL_KEY.accessKeyId, secretAccessKey: FULL_KEY.secretAccessKey },
    region: REGION,
    service: "execute-api",
    sha256: Sha256,
  });
  const text = body === undefined ? undefined : JSON.stringify(body);
  const signed = await signer.sign({
    method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: Number(url.port),
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: { host: url.host, ...(text ? { "content-type": "application/json" } : {}) },
    ...(text ? { body: text } : {}),
  });
  const response = await fetch(url, { method, headers: signed.headers, ...(text ? { body: text } : {}) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const transaction = (key: string) => ({
  idempotency_key: key,
  description: "signed",
  effective_date: "2026-01-10",
  entries: [
    { account_id: cash, amount: 1500 },
    { account_id: usd, amount: -1500 },
  ],
});

describe("requests signed by real clients", () => {
  it("curl --aws-sigv4 creates an account, posts a transaction and reads with a query", async () => {
    const account = await curl("POST", "/accounts", { name: "curl account", type: "asset", currency: "EUR" });
    expect(account.status).toBe(201);
    // It signs the headers it is given: an Idempotency-Key, which must be signed, is.
    const keyed = { "Idempotency-Key": `curl-${crypto.randomUUID()}` };
    const created = await curl(
      "POST",
      "/accounts",
      { name: "curl keyed", type: "asset", currency: "EUR" },
      keyed,
    );
    expect(created.status).toBe(201);
    expect(
      await curl("POST", "/accounts", { name: "curl keyed", type: "asset", currency: "EUR" }, keyed),
    ).toEqual(created);
    const posted = await curl("POST", "/transactions", transaction(`curl-${crypto.randomUUID()}`));
    expect(posted.status).toBe(201);
    expect((await curl("GET", `/transactions/${posted.body.id}`)).body).toEqual(posted.body);
    const page = await curl("GET", `/accounts/${cash}/entries?limit=1&offset=0`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ limit: 1, offset: 0 });
    // curl signs the query as sent; this order is not the sorted one.
    expect((await curl("GET", `/accounts/${cash}/entries?offset=0&limit=1`)).status).toBe(200);
    expect((await curl("GET", `/accounts/${cash}/balance?as_of=2026-12-31`)).status).toBe(200);
  });

  it("aws4fetch posts and reads", async () => {
    const client = ledgerClient(ledger.url);
    const posted = await client.post("/transactions", transaction(`aws4fetch-${crypto.randomUUID()}`));
    expect(posted.status).toBe(201);
    expect((await client.get(`/accounts/${cash}/balance?as_of=2026-01-10`)).status).toBe(200);
  });

  it("aws4fetch reads with a '+' in the query, which it signs as the space the server reads", async () => {
    const client = ledgerClient(ledger.url);
    const tag = `a b ${crypto.randomUUID()}`;
    const body = { ...transaction(`aws4fetch-${crypto.randomUUID()}`), metadata: { tag } };
    const posted = await client.post("/transactions", body);
    expect(posted.status).toBe(201);
    const found = await client.get(`/transactions?metadata[tag]=${tag.replaceAll(" ", "+")}`);
    expect(found.status, found.text).toBe(200);
    expect(found.body.items).toEqual([posted.body]);
  });

  it("@smithy/signature-v4 posts and reads", async () => {
    const posted = await smithy("POST", "/transactions", transaction(`smithy-${crypto.randomUUID()}`));
    expect(posted.status).toBe(201);
    const balances = await smithy("GET", "/balances?as_of=2026-01-10");
    expect(balances.status).toBe(200);
    expect(balances.body).toMatchObject({ as_of: "2026-01-10" });
  });

  it("the benchmark's own signer posts and reads (its load is real, verified SigV4)", async () => {
    const client = createSignedHttpClient(ledger.url, FULL_KEY, { region: REGION });
    try {
      const posted = await client.request(
        "POST",
        "/transactions",
        transaction(`bench-${crypto.randomUUID()}`),
      );
      expect(posted.status).toBe(201);
      const balance = await client.request("GET", `/accounts/${cash}/balance?as_of=2026-01-10`);
      expect(balance.status).toBe(200);
    } finally {
      client.close();
    }
    const wrongSecret = { ...FULL_KEY, secretAccessKey: `${FULL_KEY.secretAccessKey}x` };
    const forger = createSignedHttpClient(ledger.url, wrongSecret, { region: REGION });
    try {
      const refused = await forger.request("GET", `/accounts/${cash}/balance?as_of=2026-01-10`);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ error: "SignatureDoesNotMatch" });
    } finally {
      forger.close();
    }
  });
});

describe("the benchmark's HTTP client", () => {
  it("opens a new connection when the server has closed an idle one", async () => {
    // Closes each connection after its answer, as node:http does with idle keep-alive connections after 5 s.
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-length": "2", connection: "close" }).end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const client = createSignedHttpClient(`http://127.0.0.1:${port}`, FULL_KEY, { region: REGION });
    try {
      expect(await client.request("GET", "/first")).toEqual({ status: 200, body: "ok" });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await client.request("GET", "/second")).toEqual({ status: 200, body: "ok" });
    } finally {
      client.close();
      server.close();
    }
  });
});
