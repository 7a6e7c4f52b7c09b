/**
 * What an operator of several instances reads: one JSON line per request
 * (method, route template, status, duration, request id, user or principal),
 * the X-Request-Id echoed, Prometheus metrics on METRICS_PORT, and never a
 * token, a secret or a body in the logs.
 */
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { env } from "../scripts/env.ts";
import { startLedger, startWeb, stopProcess, waitForHealthy, type ServiceEnv } from "../scripts/processes.ts";
import { freePort } from "./free-port.ts";
import { httpClient } from "./http-client.ts";
import { ledgerClient } from "./ledger-client.ts";
import { sendRaw } from "./raw-http.ts";
import { FULL_KEY, startLedgerServer } from "./ledger-server.ts";
import { newUser } from "./tokens.ts";

let root: string;
const children: ChildProcess[] = [];
const output = { web: "", ledger: "" };
let webUrl: string;
let ledgerUrl: string;
let webMetrics: string;
let ledgerMetrics: string;
/** The servers' environment: the database of this run, free ports. */
let service: ServiceEnv;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "observe-"));
  const credentialsFile = path.join(root, "credentials.json");
  await writeFile(credentialsFile, JSON.stringify([FULL_KEY]));
  const [port, ledgerPort, metricsPort, ledgerMetricsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  service = {
    DATABASE_URL: inject("databaseUrl"),
    DATA_DIR: env.DATA_DIR,
    HOST: "127.0.0.1",
    PORT: port,
    LEDGER_PORT: ledgerPort,
    SHUTDOWN_DRAIN_MS: 0,
  };
  const prepared = { DATABASE_PREPARED_STATEMENTS: String(inject("preparedStatements")) };
  const web = startWeb(service, "piped", { ...prepared, METRICS_PORT: String(metricsPort) });
  const ledger = startLedger(service, "piped", {
    ...prepared,
    LEDGER_CREDENTIALS_FILE: credentialsFile,
    LEDGER_METRICS_PORT: String(ledgerMetricsPort),
  });
  web.stdout!.on("data", (chunk: Buffer) => (output.web += chunk.toString()));
  ledger.stdout!.on("data", (chunk: Buffer) => (output.ledger += chunk.toString()));
  children.push(web, ledger);
  webUrl = `http://127.0.0.1:${port}`;
  ledgerUrl = `http://127.0.0.1:${ledgerPort}`;
  webMetrics = `http://127.0.0.1:${metricsPort}/metrics`;
  ledgerMetrics = `http://127.0.0.1:${ledgerMetricsPort}/metrics`;
  await Promise.all([waitForHealthy(`${webUrl}/healthz`), waitForHealthy(`${ledgerUrl}/healthz`)]);
}, 120_000);

afterAll(async () => {
  await Promise.all(children.map((child) => stopProcess(child)));
  await rm(root, { recursive: true, force: true });
});

const linesOf = (text: string) =>
  text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The log line of the request with this id, once the server has written it. */
async function requestLine(service: "web" | "ledger", requestId: string) {
  for (let waited = 0; waited < 5_000; waited += 50) {
    const line = linesOf(output[service]).find((l) => l.msg === "request" && l.request_id === requestId);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no log line for ${requestId}:\n${output[service]}`);
}

describe("logs, request ids and metrics", () => {
  it("log the ledger's address with the port it bound when LEDGER_PORT=0 asks for any", async () => {
    const ledger = startLedger({ ...service, LEDGER_PORT: 0 }, "piped", {
      DATABASE_PREPARED_STATEMENTS: String(inject("preparedStatements")),
      LEDGER_CREDENTIALS_FILE: path.join(root, "credentials.json"),
    });
    let logged = "";
    ledger.stdout!.on("data", (chunk: Buffer) => (logged += chunk.toString()));
    const listening = () =>
      linesOf(logged.slice(0, logged.lastIndexOf("\n") + 1)).find((line) => line.msg === "ledger listening");
    try {
      await expect.poll(listening, { timeout: 30_000 }).toBeDefined();
      const { url } = listening() as { url: string };
      expect(url).toMatch(/^http:\/\/localhost:[1-9]\d*$/);
      expect((await fetch(`${url.replace("localhost", "127.0.0.1")}/healthz`)).status).toBe(200);
    } finally {
      await stopProcess(ledger);
    }
  }, 60_000);

  it("log one JSON line per request with its route template, status, duration, request id and user, and echo the id", async () => {
    const user = await newUser();
    const resume = httpClient(webUrl, { authorization: user.authorization });
    const created = await resume.post("/me/hobbies", { name: "Knots" }, { "x-request-id": "trace-web-1" });
    expect(created.headers.get("x-request-id")).toBe("trace-web-1");
    const id = (created.body as { id: string }).id;
    const read = await resume.get(`/me/hobbies/${id}`);
    const generated = read.headers.get("x-request-id")!;
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);

    expect(await requestLine("web", "trace-web-1")).toMatchObject({
      level: "info",
      service: "web",
      method: "POST",
      route: "/me/hobbies",
      status: 201,
      user: user.userId,
      duration_ms: expect.any(Number),
      time: expect.any(String),
    });
    expect(await requestLine("web", generated)).toMatchObject({ route: "/me/hobbies/{id}", status: 200 });

    const ledger = ledgerClient(ledgerUrl);
    const account = await ledger.account();
    const signed = await ledger.get(`/accounts/${account}`);
    const ledgerId = signed.headers.get("x-request-id")!;
    expect(await requestLine("ledger", ledgerId)).toMatchObject({
      service: "ledger",
      method: "GET",
      route: "/accounts/{id}",
      status: 200,
      user: FULL_KEY.principal,
    });
  });

  it("name the request on a line the ledger logs while answering it", async () => {
    const ledger = ledgerClient(ledgerUrl);
    const [a, b] = [await ledger.account(), await ledger.account()];
    const key = `reused-${randomUUID()}`;
    const post = (amount: number, requestId: string) =>
      ledger.send(
        "POST",
        "/transactions",
        {
          idempotency_key: key,
          entries: [
            { account_id: a, amount },
            { account_id: b, amount: -amount },
          ],
        },
        "application/json",
        { "x-request-id": requestId },
      );
    expect((await post(5, `first-${key}`)).status).toBe(201);
    const reused = await post(6, `second-${key}`);
    expect(reused.headers.get("idempotency-key-mismatch")).toBe("true");
    await requestLine("ledger", `second-${key}`);
    const warnings = linesOf(output.ledger).filter(
      (line) => line.level === "warn" && String(line.msg).includes(key),
    );
    expect(warnings).toEqual([expect.objectContaining({ service: "ledger", request_id: `second-${key}` })]);
  });

  it("name the request on the error line of a failure answered 503, in both services", async () => {
    const down = `postgresql://postgres:x@127.0.0.1:${await freePort()}/app`;
    const ledgerDown = await startLedgerServer(down);
    try {
      const answer = await ledgerClient(ledgerDown.url).send(
        "GET",
        `/accounts/${randomUUID()}`,
        undefined,
        "application/json",
        { "x-request-id": "ledger-down-1" },
      );
      expect(answer.status).toBe(503);
      expect(ledgerDown.logLines).toContainEqual(
        expect.objectContaining({ level: "error", msg: "request failed", request_id: "ledger-down-1" }),
      );
    } finally {
      await ledgerDown.stop();
    }

    const port = await freePort();
    const webDown = startWeb({ ...service, DATABASE_URL: down, PORT: port }, "piped");
    let webOutput = "";
    webDown.stdout!.on("data", (chunk: Buffer) => (webOutput += chunk.toString()));
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitForHealthy(`${url}/openapi.json`);
      const answer = await fetch(`${url}/me/profile`, {
        headers: { authorization: (await newUser()).authorization, "x-request-id": "web-down-1" },
      });
      expect(answer.status).toBe(503);
      await expect
        .poll(() =>
          linesOf(webOutput).find((line) => line.level === "error" && line.request_id === "web-down-1"),
        )
        .toMatchObject({ msg: "request failed" });
    } finally {
      await stopProcess(webDown);
    }
  });

  it("echo the X-Request-Id once on every kind of ledger answer (its answers carry it themselves)", async () => {
    const ledger = ledgerClient(ledgerUrl);
    const account = await ledger.account();
    const other = await ledger.account();
    const signed = (method: string, path: string, body?: unknown) => async (id: string) => {
      const answer = await ledger.send(method, path, body, "application/json", { "x-request-id": id });
      return [answer.status, answer.headers.get("x-request-id")] as const;
    };
    const raw =
      (requestLine: string, headers: [string, string][] = []) =>
      async (id: string) => {
        const answer = await sendRaw(ledgerUrl, { requestLine, headers: [["X-Request-Id", id], ...headers] });
        return [answer.status, answer.headers.get("x-request-id")] as const;
      };
    const answers: Record<string, [number, (id: string) => Promise<readonly [number, unknown]>]> = {
      created: [
        201,
        signed("POST", "/transactions", {
          idempotency_key: randomUUID(),
          entries: [
            { account_id: account, amount: 5 },
            { account_id: other, amount: -5 },
          ],
        }),
      ],
      read: [200, signed("GET", `/accounts/${account}`)],
      "not found": [404, signed("GET", "/nowhere")],
      "method not allowed": [405, signed("DELETE", "/accounts")],
      "not JSON": [400, signed("POST", "/transactions", "{")],
      unsigned: [403, raw("GET /accounts HTTP/1.1")],
      "too large": [413, raw("POST /transactions HTTP/1.1", [["Content-Length", String(10 * 1024 * 1024)]])],
      "not a path": [400, raw("GET http://evil.example/x HTTP/1.1")],
      health: [200, raw("GET /livez HTTP/1.1")],
      "OpenAPI document": [200, raw("GET /openapi.json HTTP/1.1")],
    };
    for (const [kind, [status, answer]] of Object.entries(answers)) {
      const id = `every-${kind.replaceAll(" ", "-")}`;
      expect(await answer(id), kind).toEqual([status, id]);
    }
  });

  it("give a request the server cannot read an id of its own, on its answer and on its log line, and count it", async () => {
    for (const [service, url, metricsUrl] of [
      ["web", webUrl, webMetrics],
      ["ledger", ledgerUrl, ledgerMetrics],
    ] as const) {
      const unreadable = {
        "headers too large": await sendRaw(url, {
          requestLine: "GET /livez HTTP/1.1",
          headers: [["X-Big", "x".repeat(17_000)]],
        }),
        "not HTTP/1.1": await sendRaw(url, { requestLine: "GET /livez HTTP/1.1 extra" }),
      };
      for (const [kind, answer] of Object.entries(unreadable)) {
        const id = answer.headers.get("x-request-id");
        expect(id, `${service}: ${kind}`).toMatch(/^[0-9a-f-]{36}$/);
        expect(await requestLine(service, id!), `${service}: ${kind}`).toMatchObject({
          route: "unparsed",
          status: answer.status,
        });
      }
      expect(unreadable["headers too large"].status).toBe(431);
      expect(await (await fetch(metricsUrl)).text()).toMatch(
        new RegExp(
          `^http_requests_total\\{method="-",route="unparsed",status="431",service="${service}"\\} [1-9]`,
          "m",
        ),
      );
    }
  });

  it("replace an X-Request-Id that is not 1-128 visible ASCII characters", async () => {
    for (const sent of ["has spaces in it", "x".repeat(129)]) {
      const response = await fetch(`${webUrl}/livez`, { headers: { "x-request-id": sent } });
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    const longest = "y".repeat(128);
    const kept = await fetch(`${webUrl}/livez`, { headers: { "x-request-id": longest } });
    expect(kept.headers.get("x-request-id")).toBe(longest);
  });

  it("serve Prometheus metrics: requests by route and status, latency, pool, database errors, cache hits, group commits", async () => {
    const resume = httpClient(webUrl, { authorization: (await newUser()).authorization });
    await resume.put("/me/profile", { name: "Metrics" });
    await resume.get("/me/resume");
    await resume.get("/me/resume");
    await resume.put("/me/profile", { name: "Metrics", headline: "Changed in memory" });
    await resume.get("/me/resume");
    await resume.post("/me/skills", { name: "Prometheus", category: "tool" });
    const ledger = ledgerClient(ledgerUrl);
    const [a, b] = [await ledger.account(), await ledger.account()];
    await ledger.post("/transactions", {
      idempotency_key: `metrics-${randomUUID()}`,
      entries: [
        { account_id: a, amount: 5 },
        { account_id: b, amount: -5 },
      ],
    });

    const web = await (await fetch(webMetrics)).text();
    expect(web).toMatch(
      /^http_requests_total\{method="GET",route="\/me\/resume",status="200",service="web"\} \d+/m,
    );
    expect(web).toMatch(
      /^http_request_duration_seconds_bucket\{le="0\.005",service="web",method="PUT",route="\/me\/profile"\} \d+/m,
    );
    expect(web).toMatch(/^db_pool_connections\{state="in_use",service="web"\} \d+/m);
    expect(web).toMatch(/^db_pool_connections\{state="waiting",service="web"\} \d+/m);
    expect(web).toMatch(/^# TYPE db_errors_total counter/m);
    expect(web).toMatch(/^resume_answer_cache_lookups_total\{result="hit",service="web"\} [1-9]\d*/m);
    expect(web).toMatch(/^resume_answer_cache_lookups_total\{result="miss",service="web"\} [1-9]\d*/m);
    expect(web).toMatch(/^resume_answers_kept_after_write_total\{how="changed",service="web"\} [1-9]\d*/m);
    expect(web).toMatch(/^resume_answers_kept_after_write_total\{how="built",service="web"\} [1-9]\d*/m);
    expect(web).toMatch(/^resume_rate_limit_windows\{service="web"\} [1-9]\d*/m);

    const led = await (await fetch(ledgerMetrics)).text();
    expect(led).toMatch(
      /^http_requests_total\{method="POST",route="\/transactions",status="201",service="ledger"\} \d+/m,
    );
    expect(led).toMatch(/^ledger_group_commit_posts_count\{service="ledger"\} [1-9]\d*/m);
    expect((await fetch(webMetrics.replace("/metrics", "/other"))).status).toBe(404);
  });

  it("count an editor call under its procedure, and paths naming none or a batch under one route each", async () => {
    const { authorization } = await newUser();
    const call = (path: string) => fetch(`${webUrl}/api/trpc/${path}`, { headers: { authorization } });
    expect((await call("skills.list")).status).toBe(200);
    expect((await call("skills.list,hobbies.list?batch=1&input={}")).status).toBe(200);
    const made = Array.from({ length: 5 }, () => `made-up-${randomUUID()}`);
    for (const path of [...made, `skills.list,${made[0]}`]) expect((await call(path)).status).toBe(404);
    const web = await (await fetch(webMetrics)).text();
    const routes = new Set(
      [...web.matchAll(/^http_requests_total\{method="GET",route="(\/api\/trpc\/[^"]*)"/gm)].map((m) => m[1]),
    );
    expect([...routes].sort()).toEqual(["/api/trpc/skills.list", "/api/trpc/{batch}", "/api/trpc/{unknown}"]);
    expect(web).not.toContain("made-up-");
  });

  it("never write a token, a secret key or a body into the logs", async () => {
    const user = await newUser();
    const token = user.authorization.slice("Bearer ".length);
    const resume = httpClient(webUrl, { authorization: user.authorization });
    const secretText = `body-text-${randomUUID()}`;
    await resume.post("/me/hobbies", { name: secretText });
    await resume.post("/me/hobbies", { name: "x", unknown: secretText });
    await fetch(`${webUrl}/me/profile`, { headers: { authorization: `Bearer ${token}x` } });
    // A personal access token: made, used, used with a typo, revoked, used again.
    const made = await resume.post("/me/tokens", { name: "logs", scopes: ["resume:write"] });
    const personalToken = String(made.body.token);
    const personal = httpClient(webUrl, { authorization: `Bearer ${personalToken}` });
    expect((await personal.post("/me/hobbies", { name: "via token" })).status).toBe(201);
    await fetch(`${webUrl}/me/profile`, { headers: { authorization: `Bearer ${personalToken}x` } });
    await resume.delete(`/me/tokens/${String(made.body.id)}`);
    expect((await personal.get("/me/hobbies")).status).toBe(401);
    const ledger = ledgerClient(ledgerUrl);
    await ledger.post("/accounts", { name: secretText, type: "asset", currency: "USD" });
    // A last request on each, and its line in the output: every line before it has been written too.
    const last = `last-${randomUUID()}`;
    await fetch(`${webUrl}/livez`, { headers: { "x-request-id": last } });
    await fetch(`${ledgerUrl}/livez`, { headers: { "x-request-id": last } });
    await requestLine("web", last);
    await requestLine("ledger", last);
    for (const [service, text] of Object.entries(output)) {
      expect(text.includes(token), `${service} logs hold a bearer token`).toBe(false);
      expect(text.includes(personalToken), `${service} logs hold a personal access token`).toBe(false);
      expect(text.includes(FULL_KEY.secretAccessKey), `${service} logs hold the secret key`).toBe(false);
      expect(text.includes(secretText), `${service} logs hold a request body`).toBe(false);
    }
  });
});
