/**
 * The services as they are deployed: several stateless instances behind a
 * load balancer over one PostgreSQL. Two web and two ledger processes on this
 * run's database; each test spreads its requests over both of a kind.
 */
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { env } from "../scripts/env.ts";
import { startLedger, stopProcess, waitForHealthy } from "../scripts/processes.ts";
import { freePort } from "./free-port.ts";
import { hasPoppler, pdfText } from "./documents.ts";
import { freshLoopbackAddress, getFromAddress } from "./from-address.ts";
import { httpClient } from "./http-client.ts";
import { ledgerClient } from "./ledger-client.ts";
import { FULL_KEY } from "./ledger-server.ts";
import { addThreeJobs, THREE_JOBS } from "./three-jobs.ts";
import { newUser } from "./tokens.ts";
import { startWebServer, type WebServer } from "./web-server.ts";

let webs: WebServer[] = [];
const ledgers: ChildProcess[] = [];
let ledgerUrls: string[] = [];
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "instances-"));
  const credentialsFile = path.join(root, "credentials.json");
  await writeFile(credentialsFile, JSON.stringify([FULL_KEY]));
  webs = await Promise.all([startWebServer(), startWebServer()]);
  const ports = [await freePort(), await freePort()];
  for (const port of ports) {
    ledgers.push(
      startLedger(
        {
          DATABASE_URL: inject("databaseUrl"),
          DATA_DIR: env.DATA_DIR,
          HOST: "127.0.0.1",
          PORT: 0,
          LEDGER_PORT: port,
          SHUTDOWN_DRAIN_MS: 0,
        },
        "quiet",
        {
          LEDGER_CREDENTIALS_FILE: credentialsFile,
          DATABASE_PREPARED_STATEMENTS: String(inject("preparedStatements")),
        },
      ),
    );
  }
  ledgerUrls = ports.map((port) => `http://127.0.0.1:${port}`);
  await Promise.all(ledgerUrls.map((url) => waitForHealthy(`${url}/healthz`)));
}, 120_000);

afterAll(async () => {
  await Promise.all([...webs.map((web) => web.stop()), ...ledgers.map((child) => stopProcess(child))]);
  await rm(root, { recursive: true, force: true });
});

describe("two instances of each service on one database", () => {
  it("count one rate limit per user across both web instances: 300 a minute in all", async () => {
    const { authorization } = await newUser();
    const clients = webs.map((web) => httpClient(web.url, { authorization }));
    const statuses: number[] = [];
    // Four at a time, alternating instances, so that both count at once.
    for (let sent = 0; sent < 400; sent += 4) {
      const round = await Promise.all([0, 1, 2, 3].map((i) => clients[i % 2]!.get("/me/skills")));
      statuses.push(...round.map((r) => r.status));
    }
    const allowed = statuses.filter((s) => s === 200).length;
    console.log(`${allowed} of 400 requests over two instances allowed`);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(allowed).toBeGreaterThanOrEqual(300);
    expect(allowed).toBeLessThanOrEqual(305);
  }, 60_000);

  it("never serve a stale whole resume: a write on one instance is read on the other, in both formats", async () => {
    const { authorization } = await newUser();
    const [a, b] = webs.map((web) => httpClient(web.url, { authorization }));
    expect((await a!.put("/me/profile", { name: "Two Servers" })).status).toBe(200);
    for (let round = 0; round < 10; round += 1) {
      const [writer, reader] = round % 2 ? [a!, b!] : [b!, a!];
      // Warm the reader's memory with the current answer in both formats.
      await reader.get("/me/resume");
      await reader.get("/me/resume?format=markdown");
      const name = `skill ${round} ${randomUUID().slice(0, 8)}`;
      expect((await writer.post("/me/skills", { name, category: "tool" })).status).toBe(201);
      const json = await reader.get<{ skills: { name: string }[] }>("/me/resume");
      expect(json.body.skills.map((s) => s.name)).toContain(name);
      expect((await reader.get("/me/resume?format=markdown")).text).toContain(name);
    }
  });

  it("make one transaction of posts with one key sent to both ledger instances at once", async () => {
    const clients = ledgerUrls.map((url) => ledgerClient(url));
    const [cash, sales] = [await clients[0]!.account(), await clients[1]!.account()];
    const body = {
      idempotency_key: `instances-${randomUUID()}`,
      entries: [
        { account_id: cash, amount: 700 },
        { account_id: sales, amount: -700 },
      ],
    };
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => clients[i % 2]!.post("/transactions", body)),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(39);
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
    const entries = await clients[0]!.get<{ items: unknown[] }>(`/accounts/${cash}/entries`);
    expect(entries.body.items).toHaveLength(1);
  });

  it("make one entry of creates with one Idempotency-Key sent to both web instances at once", async () => {
    const { authorization } = await newUser();
    const clients = webs.map((web) => httpClient(web.url, { authorization }));
    const key = `create-${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        clients[i % 2]!.post("/me/hobbies", { name: "Chess" }, { "idempotency-key": key }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
    expect(answers.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
    expect(new Set(answers.map((r) => r.headers.get("location"))).size).toBe(1);
    const list = await clients[0]!.get<{ items: unknown[] }>("/me/hobbies");
    expect(list.body.items).toHaveLength(1);
  });
});

describe("share links on two web instances", () => {
  // Pages are asked for from an address of their own: other test files count pages of 127.0.0.1 in this database too.
  const client = freshLoopbackAddress();
  const get = (url: string) => getFromAddress(url, client);

  /** A version of two of three jobs and a link to it, made on the first instance; the link's path. */
  async function sharedVersion() {
    const { authorization } = await newUser();
    const [a, b] = webs.map((web) => httpClient(web.url, { authorization }));
    await a!.put("/me/profile", { name: "Shared Twice" });
    const jobs = await addThreeJobs(a!);
    const version = await a!.post<{ id: string }>("/me/versions", {
      name: "two",
      include: { experience: [jobs[0], jobs[2]] },
    });
    const link = await a!.post<{ id: string; url: string }>(`/me/versions/${version.body.id}/links`, {});
    expect(link.status).toBe(201);
    return { a: a!, b: b!, jobs, linkId: link.body.id, path: new URL(link.body.url).pathname };
  }

  it("show an edit of an included entry at once on the other instance's page and PDF (made by its document workers)", async () => {
    const { a, jobs, path } = await sharedVersion();
    const [first, second] = webs.map((web) => `${web.url}${path}`);
    expect((await get(second!)).body.toString()).toContain("Gamma Inc");
    expect((await get(`${second}.pdf`)).status).toBe(200);
    await a.put(`/me/experience/${jobs[2]}`, { ...THREE_JOBS[2], organization: "Gamma Renamed" });
    for (const url of [second!, first!]) {
      const page = (await get(url)).body.toString();
      expect(page).toContain("Gamma Renamed");
      expect(page).not.toContain("Gamma Inc");
      const pdf = await get(`${url}.pdf`);
      expect(pdf.status).toBe(200);
      if (hasPoppler) expect(await pdfText(new Uint8Array(pdf.body))).toContain("Gamma Renamed");
    }
  });

  it("answer a revoked link with a 404 at once on both instances", async () => {
    const { b, linkId, path } = await sharedVersion();
    const urls = webs.map((web) => `${web.url}${path}`);
    for (const url of urls) expect((await get(url)).status).toBe(200);
    expect((await b.delete(`/me/links/${linkId}`)).status).toBe(200);
    for (const url of urls) {
      expect((await get(url)).status).toBe(404);
      expect((await get(`${url}.docx`)).status).toBe(404);
    }
  });

  it("count one public rate limit per address across both instances: 60 a minute, then 429 with Retry-After", async () => {
    const { path } = await sharedVersion();
    const address = freshLoopbackAddress();
    const answers = [];
    for (let i = 0; i < 70; i += 1) answers.push(await getFromAddress(`${webs[i % 2]!.url}${path}`, address));
    expect(answers.slice(0, 60).map((a) => a.status)).toEqual(Array(60).fill(200));
    for (const answer of answers.slice(60)) {
      expect(answer.status).toBe(429);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    // Another address is not held back.
    expect((await getFromAddress(`${webs[0]!.url}${path}`, freshLoopbackAddress())).status).toBe(200);
  }, 60_000);
});
