import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase, statementName, type Database } from "../src/index.ts";

let db: Database;

beforeAll(() => {
  // One connection, so the statements below all meet the same session.
  db = createDatabase({ connectionString: inject("databaseUrl"), maxConnections: 1 });
});

afterAll(async () => {
  await db.$disconnect();
});

describe("prepared statements", () => {
  it("names a statement by its text: the same text the same name, another text another", () => {
    const sql = "SELECT $1::int + 1 AS n";
    expect(statementName(sql)).toBe(statementName(`${sql}`));
    expect(statementName(sql)).not.toBe(statementName("SELECT $1::int + 2 AS n"));
  });

  it("prepares each statement once per connection and reuses it with new values", async () => {
    const sql = "SELECT $1::int + 1 AS n";
    expect(await db.$queryRawUnsafe(sql, 1)).toEqual([{ n: 2 }]);
    expect(await db.$queryRawUnsafe(sql, 41)).toEqual([{ n: 42 }]);
    const prepared = await db.$queryRawUnsafe<{ name: string; statement: string }[]>(
      "SELECT name, statement FROM pg_prepared_statements WHERE name = $1",
      statementName(sql),
    );
    expect(prepared).toEqual([{ name: statementName(sql), statement: sql }]);
  });
});
