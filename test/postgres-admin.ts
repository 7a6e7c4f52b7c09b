import pg from "pg";

/** `url` pointing at another database on the same server. */
export function withDatabaseName(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs one statement on a connection of its own and returns its rows. */
export async function queryRows<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Runs one statement (CREATE / DROP DATABASE) on its own connection. */
export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  await queryRows(adminUrl, sql);
}
