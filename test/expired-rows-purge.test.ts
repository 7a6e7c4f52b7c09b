/**
 * The web app purges idempotency keys past 24 h and request counts of windows
 * an hour old soon after it starts, not only an hour later: an instance
 * restarted more often than hourly purges too. A real production server on
 * this run's database.
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { queryRows } from "./postgres-admin.ts";
import { startProductionWeb, type WebServer } from "./production-web.ts";

const servers: WebServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

describe("expired rows", () => {
  it("are purged within seconds of the web app's start, and what is not expired stays", async () => {
    const url = inject("databaseUrl");
    const user = `purge-${randomUUID()}`;
    const address = `purge-${randomUUID()}`;
    // 6,000 expired keys: more than one purge statement deletes.
    await queryRows(
      url,
      `INSERT INTO resume.idempotency_keys (user_id, idempotency_key, collection, request_hash, entry, created_at)
       SELECT '${user}', 'old-' || i, 'hobbies', 'h', '{}'::jsonb, now() - interval '25 hours' FROM generate_series(1, 6000) i
       UNION ALL SELECT '${user}', 'new', 'hobbies', 'h', '{}'::jsonb, now() - interval '23 hours'`,
    );
    await queryRows(
      url,
      `INSERT INTO resume.public_rate_limits (client_address, window_start, count) VALUES ('${address}', now() - interval '2 hours', 3)`,
    );
    const web = await startProductionWeb(url, {
      DATABASE_PREPARED_STATEMENTS: String(inject("preparedStatements")),
    });
    servers.push(web);

    const left = async () => ({
      keys: (
        await queryRows<{ key: string }>(
          url,
          `SELECT idempotency_key AS key FROM resume.idempotency_keys WHERE user_id = '${user}'`,
        )
      ).map((row) => row.key),
      windows: (
        await queryRows(url, `SELECT 1 FROM resume.public_rate_limits WHERE client_address = '${address}'`)
      ).length,
    });
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      if ((await left()).windows === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await left()).toEqual({ keys: ["new"], windows: 0 });
  }, 60_000);
});
