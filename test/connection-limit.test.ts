/**
 * PostgreSQL out of connections (SQLSTATE 53300): both services on a role
 * whose CONNECTION LIMIT is below their pools, under more load than it allows.
 * What cannot be served is a 503 with Retry-After, never a 500.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { httpClient, type HttpResult } from "./http-client.ts";
import { ledgerClient } from "./ledger-client.ts";
import { startLedgerServer, type LedgerServer } from "./ledger-server.ts";
import { adminQuery } from "./postgres-admin.ts";
import { startResumeApi } from "./resume-api.ts";
import { newUser } from "./tokens.ts";
import type { WebServer } from "./web-server.ts";

const role = `limited_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
const password = randomUUID();
/** This run's database, as the limited role. */
let limitedUrl: string;
let server: WebServer | LedgerServer | undefined;

beforeAll(async () => {
  // A member of the owner role has its privileges, but not superuser's exemption from limits.
  await adminQuery(
    inject("adminUrl"),
    `CREATE ROLE ${role} LOGIN PASSWORD '${password}' CONNECTION LIMIT 3 IN ROLE postgres`,
  );
  const url = new URL(inject("databaseUrl"));
  url.username = role;
  url.password = password;
  limitedUrl = url.toString();
});

afterEach(async () => {
  // One service at a time: each fills the role's few connections with its pool.
  await server?.stop();
  server = undefined;
});

afterAll(async () => {
  await adminQuery(inject("adminUrl"), `DROP ROLE IF EXISTS ${role}`);
});

function expectServedOr503(results: HttpResult[], what: string) {
  const statuses = results.map((r) => r.status);
  expect(
    statuses.filter((s) => s !== 503 && (s < 200 || s >= 300)),
    what,
  ).toEqual([]);
  for (const refused of results.filter((r) => r.status === 503)) {
    expect(refused.headers.get("retry-after"), what).toBe("2");
    expect(refused.body, what).toMatchObject({ statusCode: 503, error: "SERVICE_UNAVAILABLE" });
  }
  return statuses.filter((s) => s === 503).length;
}

describe("a role out of connections (53300)", () => {
  it("answers the requests it cannot serve with 503, never 500: resume reads and writes", async () => {
    const web = (server = await startResumeApi({ databaseUrl: limitedUrl }));
    const users = await Promise.all(Array.from({ length: 4 }, () => newUser()));
    const clients = users.map((u) => httpClient(web.url, { authorization: u.authorization }));
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) => {
        const client = clients[i % clients.length]!;
        return [
          () => client.get("/me/skills"),
          () => client.post("/me/skills", { name: `skill ${i}`, category: "tool" }),
          () => client.get("/me/resume"),
          () => client.put("/me/profile", { name: `Person ${i}` }),
        ][i % 4]!();
      }),
    );
    const refused = expectServedOr503(results, "resume");
    console.log(`resume: ${results.length - refused} served, ${refused} refused with 503`);
    expect(refused, "the load passed the limit").toBeGreaterThan(0);
  });

  it("answers the requests it cannot serve with 503, never 500: ledger balances, reads and posts", async () => {
    const ledger = (server = await startLedgerServer(limitedUrl));
    const client = ledgerClient(ledger.url);
    const [cash, sales] = [await client.account(), await client.account()];
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        [
          () => client.get("/balances"),
          () => client.get(`/accounts/${cash}/balance`),
          () =>
            client.post("/transactions", {
              idempotency_key: `limit-${i}-${randomUUID()}`,
              entries: [
                { account_id: cash, amount: 5 },
                { account_id: sales, amount: -5 },
              ],
            }),
          () => client.post("/accounts", { name: `a${i}`, type: "asset", currency: "EUR" }),
        ][i % 4]!(),
      ),
    );
    const refused = expectServedOr503(results, "ledger");
    console.log(`ledger: ${results.length - refused} served, ${refused} refused with 503`);
    expect(refused, "the load passed the limit").toBeGreaterThan(0);
  });
});
