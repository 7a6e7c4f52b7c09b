import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../../scripts/database.ts";
import { createScratchDatabase, type ScratchDatabase } from "../../../test/scratch-database.ts";

/**
 * The checks a post runs at its commit (its entries balance, its bounded
 * accounts stay within bounds) find its rows by id: one plan serves every
 * post. PostgreSQL chooses per connection between that generic plan and a
 * plan made for each call, by estimates, and after an ANALYZE of the growing
 * tables it sometimes chose the latter: that connection then spent twice the
 * database's CPU on every post (docs/benchmarks.md). The checks keep the
 * generic plan whatever the connection would choose. Here the connection asks
 * for plans per call outright, and auto_explain (a PostgreSQL module, loaded
 * for this connection only) reports the plans the checks ran with: a plan
 * made for the call names the transaction's id, the generic one a parameter.
 * Loading it takes a superuser (the embedded server's role is one; on a
 * DATABASE_URL server whose role is not, the test says so and is skipped).
 */
let scratch: ScratchDatabase;
let sql: pg.Client;
let superuser = false;
const plans: string[] = [];

beforeAll(async () => {
  scratch = await createScratchDatabase();
  await migrate(scratch.url);
  sql = new pg.Client({ connectionString: scratch.url });
  await sql.connect();
  sql.on("notice", (notice) => plans.push(notice.message ?? ""));
  const { rows } = await sql.query<{ rolsuper: boolean }>(
    "SELECT rolsuper FROM pg_roles WHERE rolname = current_user",
  );
  superuser = rows[0]?.rolsuper === true;
});

afterAll(async () => {
  await sql?.end();
  await scratch?.drop();
});

describe("the checks at a post's commit", () => {
  it("run with their generic plans on a connection that would plan every statement anew", async (context) => {
    if (!superuser) context.skip("loading auto_explain takes a superuser");
    const [cash, sales] = [randomUUID(), randomUUID()];
    await sql.query(
      `INSERT INTO ledger.accounts (id, name, type, currency) VALUES ($1, 'cash', 'asset', 'USD'), ($2, 'sales', 'income', 'USD')`,
      [cash, sales],
    );
    for (const setting of [
      "LOAD 'auto_explain'",
      "SET auto_explain.log_min_duration = 0",
      "SET auto_explain.log_nested_statements = on",
      "SET auto_explain.log_level = notice",
      // The plan alone: its parameters' values would name the id whichever plan ran.
      "SET auto_explain.log_parameter_max_length = 0",
      "SET plan_cache_mode = force_custom_plan",
    ])
      await sql.query(setting);

    const posted: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = randomUUID();
      posted.push(id);
      await sql.query("BEGIN");
      await sql.query(
        `INSERT INTO ledger.transactions (id, principal, idempotency_key, request_hash, effective_date)
         VALUES ($1, 'plans-test', $2, repeat('0', 64), current_date)`,
        [id, randomUUID()],
      );
      await sql.query(
        `INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
         VALUES ($1, $3, $4, 'USD', 100, current_date, 0), ($2, $3, $5, 'USD', -100, current_date, 1)`,
        [randomUUID(), randomUUID(), id, cash, sales],
      );
      await sql.query("COMMIT");
    }

    // The statement of each check that reads the post's entries (balance, bounds), as run at each commit.
    const checks = plans.filter((plan) => /FROM ledger\.entries[\s\S]*?transaction_id = NEW\.id/.test(plan));
    expect(checks.length).toBeGreaterThanOrEqual(2 * posted.length);
    for (const plan of checks) {
      for (const id of posted) expect(plan).not.toContain(id);
      expect(plan).toMatch(/transaction_id = \$\d/);
    }
  });
});
