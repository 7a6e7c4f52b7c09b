import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase, PLAN_EACH_CALL, statementName, type Database } from "../src/index.ts";

let db: Database;

beforeAll(() => {
  // One connection, so the statements below all meet the same session.
  db = createDatabase({ connectionString: inject("databaseUrl"), poolSize: 1 });
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

  it("leaves a statement marked PLAN_EACH_CALL unprepared, so each call is planned for its values", async () => {
    const sql = `${PLAN_EACH_CALL} SELECT $1::int * 2 AS n`;
    expect(await db.$queryRawUnsafe(sql, 21)).toEqual([{ n: 42 }]);
    const prepared = await db.$queryRawUnsafe<{ count: number }[]>(
      "SELECT count(*)::int AS count FROM pg_prepared_statements WHERE statement LIKE '%plan each call%' AND statement NOT LIKE '%pg_prepared_statements%'",
    );
    expect(prepared).toEqual([{ count: 0 }]);
  });
});
