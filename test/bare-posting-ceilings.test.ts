/**
 * The posting benchmark's bare HTTP ceilings (bench/bare-posting-server.ts)
 * write what they answer: a ratio to a ceiling that answered without writing
 * would flatter nothing but the ceiling. Each store is started as the bench
 * starts it, on a migrated database of its own.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createDatabase, queryRows } from "@app/db";
import { startBarePostingServer, type BarePostingStore } from "../bench/bare-posting-ceiling.ts";
import { createMinimalSchema } from "../bench/minimal-schema.ts";
import { createAccount } from "../packages/ledger/src/store/accounts.ts";
import { migrate } from "../scripts/database.ts";
import { createScratchDatabase } from "./scratch-database.ts";

/** Where each store keeps a post's key. */
const KEYS_TABLE: Record<BarePostingStore, string> = {
  minimal: "minimal.transactions",
  ledger: "ledger.transactions",
};

describe("the bare posting ceilings", () => {
  it("each writes a balanced post into its store and refuses an unbalanced one", async () => {
    const scratch = await createScratchDatabase();
    await migrate(scratch.url);
    const db = createDatabase({ connectionString: scratch.url });
    try {
      const [cash, sales] = await Promise.all(
        ["cash", "sales"].map(
          async (name) => (await createAccount(db, { name, type: "asset", currency: "USD" })).id,
        ),
      );
      await createMinimalSchema(scratch.url, [cash!, sales!]);
      const post = (url: string, key: string, credit: number) =>
        fetch(`${url}/transactions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            idempotency_key: key,
            entries: [
              { account_id: cash, amount: 100 },
              { account_id: sales, amount: credit },
            ],
          }),
        });

      for (const store of ["minimal", "ledger"] as const) {
        const server = await startBarePostingServer(scratch.url, store);
        try {
          const [balanced, unbalanced] = [randomUUID(), randomUUID()];
          expect((await post(server.url, balanced, -100)).status, store).toBe(201);
          expect((await post(server.url, unbalanced, -99)).status, store).toBe(422);
          const written = await queryRows<{ idempotency_key: string }>(
            db,
            `SELECT idempotency_key FROM ${KEYS_TABLE[store]} WHERE idempotency_key = ANY($1::text[])`,
            [balanced, unbalanced],
          );
          expect(
            written.map((row) => row.idempotency_key),
            store,
          ).toEqual([balanced]);
        } finally {
          await server.stop();
        }
      }
    } finally {
      await db.$disconnect();
      await scratch.drop();
    }
  });
});
