import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerClient, type LedgerClient } from "../../../test/ledger-client.ts";
import { OTHER_FULL_KEY, startLedgerServer, type LedgerServer } from "../../../test/ledger-server.ts";

let ledger: LedgerServer;
let client: LedgerClient;

beforeAll(async () => {
  ledger = await startLedgerServer();
  client = ledgerClient(ledger.url);
});

afterAll(async () => {
  await ledger?.stop();
});

const create = (key: string, body: unknown, as = client) =>
  as.send("POST", "/accounts", JSON.stringify(body), "application/json", { "idempotency-key": key });

const accountsNamed = async (name: string) => (await client.allAccounts()).filter((a) => a.name === name);

describe("POST /accounts with an Idempotency-Key", () => {
  it("answers a retry with the same body with the first 201 again (Idempotent-Replayed), one account", async () => {
    const name = `retried ${crypto.randomUUID()}`;
    const key = `create-${crypto.randomUUID()}`;
    const first = await create(key, { name, type: "asset", currency: "USD" });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();

    const again = await create(key, { name, type: "asset", currency: "USD" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect(again.text).toBe(first.text);
    expect(await accountsNamed(name)).toHaveLength(1);
  });

  it("refuses the key with another body: 422 IDEMPOTENCY_KEY_REUSED, nothing created", async () => {
    const name = `reused ${crypto.randomUUID()}`;
    const key = `create-${crypto.randomUUID()}`;
    expect((await create(key, { name, type: "asset", currency: "USD" })).status).toBe(201);
    const other = await create(key, { name, type: "asset", currency: "EUR" });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ statusCode: 422, error: "IDEMPOTENCY_KEY_REUSED" });
    expect(await accountsNamed(name)).toHaveLength(1);
  });

  it("makes one account of 20 simultaneous creates with one key; all 20 answer it", async () => {
    const name = `parallel ${crypto.randomUUID()}`;
    const key = `create-${crypto.randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => create(key, { name, type: "liability", currency: "USD" })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    expect(await accountsNamed(name)).toHaveLength(1);
  });

  it("scopes the key to the principal: another principal's same key makes its own account", async () => {
    const key = `create-${crypto.randomUUID()}`;
    const mine = await create(key, { name: `mine ${key}`, type: "asset", currency: "USD" });
    const theirs = await create(
      key,
      { name: `theirs ${key}`, type: "asset", currency: "USD" },
      ledgerClient(ledger.url, OTHER_FULL_KEY),
    );
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it("leaves the key unused when the create is refused, and refuses a key that is not 1-255 visible ASCII", async () => {
    const key = `create-${crypto.randomUUID()}`;
    const refused = await create(key, { name: "", type: "asset", currency: "USD" });
    expect(refused.status).toBe(400);
    const name = `after a refusal ${key}`;
    const created = await create(key, { name, type: "asset", currency: "USD" });
    expect(created.status).toBe(201);
    expect(created.headers.get("idempotent-replayed")).toBeNull();

    for (const bad of ["k".repeat(256), "two words", "tab\there", "café"]) {
      const answer = await create(bad, {
        name: `bad key ${crypto.randomUUID()}`,
        type: "asset",
        currency: "USD",
      });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body).toMatchObject({ statusCode: 400, error: "BAD_REQUEST" });
      expect(answer.body.message).toMatch(/Idempotency-Key/);
    }
  });
});
