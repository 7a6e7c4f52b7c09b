/**
 * `$disconnect()` closes the pool's connections, whether or not Prisma ran a
 * statement on them itself (most go around it: queryRows, inTransaction).
 * Counted where they live: PostgreSQL's pg_stat_activity.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase, inTransaction, queryRows } from "../src/index.ts";

let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: inject("databaseUrl") });
  await admin.connect();
});

afterAll(async () => {
  await admin.end();
});

/** A database whose connections name themselves, and how many of them the server has. */
function namedDatabase() {
  const name = `disconnect-${randomUUID()}`;
  const url = new URL(inject("databaseUrl"));
  url.searchParams.set("application_name", name);
  const db = createDatabase({ connectionString: url.toString(), poolSize: 3 });
  const connections = async () => {
    const { rows } = await admin.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
      [name],
    );
    return rows[0].n as number;
  };
  return { db, connections };
}

/** Until the server has let the connections go (a backend ends a moment after its client). */
async function settled(connections: () => Promise<number>): Promise<number> {
  for (const deadline = Date.now() + 2_000; Date.now() < deadline;) {
    if ((await connections()) === 0) return 0;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return connections();
}

describe("$disconnect", () => {
  it("closes the pool when every statement went around Prisma", async () => {
    const { db, connections } = namedDatabase();
    await Promise.all([
      queryRows(db, "SELECT pg_sleep(0.1)"),
      inTransaction(db, (tx) => tx.query("SELECT pg_sleep(0.1)")),
    ]);
    // Two of the pool, and perhaps the hang watch's probe beside them.
    expect(await connections()).toBeGreaterThanOrEqual(2);
    await db.$disconnect();
    expect(await settled(connections)).toBe(0);
  });

  it("closes the pool once when Prisma ran statements too", async () => {
    const { db, connections } = namedDatabase();
    await db.$queryRaw`SELECT 1`;
    await queryRows(db, "SELECT 1");
    await db.$disconnect();
    expect(await settled(connections)).toBe(0);
  });
});
