import pg from "pg";

/**
 * A minimal correct ledger (issue 15): what any double-entry schema must write
 * and check per transaction. The posting ceilings write into it: the bare
 * HTTP server and pgbench.
 */
const MINIMAL_SCHEMA = `
CREATE SCHEMA minimal;
CREATE TABLE minimal.accounts (id uuid PRIMARY KEY, currency char(3) NOT NULL);
CREATE TABLE minimal.transactions (id uuid PRIMARY KEY, idempotency_key text NOT NULL UNIQUE, effective_date date NOT NULL);
CREATE TABLE minimal.entries (
  transaction_id uuid NOT NULL REFERENCES minimal.transactions, position smallint NOT NULL,
  account_id uuid NOT NULL REFERENCES minimal.accounts, amount bigint NOT NULL, effective_date date NOT NULL,
  PRIMARY KEY (transaction_id, position));
CREATE INDEX ON minimal.entries (account_id, effective_date) INCLUDE (amount);
CREATE FUNCTION minimal.check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n int; total bigint;
BEGIN
  SELECT count(*), sum(amount) INTO n, total FROM minimal.entries WHERE transaction_id = NEW.id;
  IF n < 2 OR total <> 0 THEN RAISE EXCEPTION 'unbalanced' USING ERRCODE = 'check_violation'; END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER balanced AFTER INSERT ON minimal.transactions DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION minimal.check_balanced();`;

/** Creates the minimal schema with the given USD accounts (the ledger's, so every ceiling posts the same entries). */
export async function createMinimalSchema(databaseUrl: string, accountIds: string[]): Promise<void> {
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    await sql.query(MINIMAL_SCHEMA);
    for (const id of accountIds) await sql.query("INSERT INTO minimal.accounts VALUES ($1, 'USD')", [id]);
  } finally {
    await sql.end();
  }
}

/**
 * Empties the minimal schema's transactions and entries (its accounts stay),
 * so that each ceiling writing into it starts from empty tables, whichever
 * ran before it.
 */
export async function emptyMinimalSchema(databaseUrl: string): Promise<void> {
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    await sql.query("TRUNCATE minimal.entries, minimal.transactions");
  } finally {
    await sql.end();
  }
}
