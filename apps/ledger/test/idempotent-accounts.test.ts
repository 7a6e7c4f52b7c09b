import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
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

  it("takes a retry that says the same in other words for the same body: fields in another order, defaults sent", async () => {
    const name = `reworded ${crypto.randomUUID()}`;
    const key = `create-${crypto.randomUUID()}`;
    const first = await create(key, { name, type: "asset", currency: "USD", metadata: { b: "2", a: "1" } });
    expect(first.status).toBe(201);
    for (const retry of [
      { metadata: { a: "1", b: "2" }, currency: "USD", type: "asset", name },
      {
        name,
        type: "asset",
        currency: "USD",
        min_balance: null,
        max_balance: null,
        metadata: { b: "2", a: "1" },
      },
    ]) {
      const again = await create(key, retry);
      expect(again.status, JSON.stringify(retry)).toBe(201);
      expect(again.text).toBe(first.text);
    }
    expect((await create(key, { name, type: "asset", currency: "USD", metadata: { a: "1" } })).status).toBe(
      422,
    );
    expect(await accountsNamed(name)).toHaveLength(1);
  });

  it("still answers the retry of a key kept from before, hashed as its body was sent", async () => {
    const name = `kept ${crypto.randomUUID()}`;
    const key = `create-${crypto.randomUUID()}`;
    const sent = { name, type: "asset", currency: "USD" };
    const first = await create(key, sent);
    expect(first.status).toBe(201);
    // How the key was kept before 2026-11-30: sha256 of the parsed body as JSON, in its order.
    const asSent = createHash("sha256").update(JSON.stringify(sent)).digest("hex");
    const sql = new pg.Client({ connectionString: inject("databaseUrl") });
    await sql.connect();
    try {
      await sql.query(
        "UPDATE ledger.account_idempotency_keys SET request_hash = $1 WHERE idempotency_key = $2",
        [asSent, key],
      );
    } finally {
      await sql.end();
    }
    const again = await create(key, sent);
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(again.text).toBe(first.text);
    expect((await create(key, { ...sent, currency: "EUR" })).status).toBe(422);
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
