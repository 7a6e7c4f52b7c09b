import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpClient } from "./http-client.ts";
import { ledgerClient } from "./ledger-client.ts";
import { startServicesOnOwnDatabase, type ServicesOnOwnDatabase } from "./services-on-own-database.ts";
import { newUser } from "./tokens.ts";

/**
 * Both services on a PostgreSQL of their own, which the test stops and starts
 * again while they take requests: over TCP, and over a Unix-domain socket
 * (a DATABASE_URL naming the socket's directory), whose file is gone while the
 * server is down (ENOENT, not ECONNREFUSED).
 */
describe.each([
  { transport: "TCP", unixSocket: false },
  { transport: "a Unix-domain socket", unixSocket: true },
])("PostgreSQL stops and comes back, connected over $transport", ({ unixSocket }) => {
  let services: ServicesOnOwnDatabase;

  beforeAll(async () => {
    services = await startServicesOnOwnDatabase(unixSocket ? "outage-socket" : "outage", { unixSocket });
  }, 120_000);

  afterAll(async () => {
    await services?.stop();
  });

  it("answers 503 with the error body within 2 s while it is down, and serves again within 5 s of its return", async () => {
    const resume = httpClient(services.webUrl, { authorization: (await newUser()).authorization });
    const made = await resume.post("/me/tokens", { name: "outage", scopes: ["resume:write"] });
    // A personal access token is looked up in the database on every request.
    const personal = httpClient(services.webUrl, { authorization: `Bearer ${String(made.body.token)}` });
    const ledger = ledgerClient(services.ledgerUrl);
    const account = await ledger.account();
    const calls = {
      "GET /me/resume": () => resume.get("/me/resume"),
      "POST /me/hobbies": () => resume.post("/me/hobbies", { name: "outage" }),
      "GET /me/skills with a personal token": () => personal.get("/me/skills"),
      "GET /me/resume with a personal token": () => personal.get("/me/resume"),
      "GET /accounts/{id}/balance": () => ledger.get(`/accounts/${account}/balance`),
      "POST /accounts": () => ledger.post("/accounts", { name: "outage", type: "asset", currency: "USD" }),
    };
    for (const [name, call] of Object.entries(calls)) expect((await call()).status, name).toBeLessThan(300);

    await services.postgres.stop();
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
      expect(result.text, name).not.toMatch(/\bat .+:\d+|ECONNREFUSED|ENOENT|prisma/i);
    }

    await services.restartDatabase();
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
