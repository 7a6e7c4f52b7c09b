import { createHash, randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { batchCalls, databaseErrorCode, withTimeout, type Database } from "@app/db";
import { DomainError } from "@app/rest";
import type { PostTransactionInput, Transaction } from "../schemas.ts";
import { todayUtc } from "./balances.ts";
import { transactionJson } from "./sql.ts";

export interface PostResult {
  transaction: Transaction;
  /** The key was known: this is the original transaction, nothing was posted. */
  replayed: boolean;
  /** A replay whose request differs from the original's. */
  mismatch: boolean;
}

interface NewTransaction {
  idempotencyKey: string;
  requestHash: string;
  description: string | null;
  effectiveDate: string;
  reversesTransactionId: string | null;
  entries: { account_id: string; amount: number }[];
}

/** sha256 of the request as sent (an omitted date stays omitted), to tell a replay from a reused key. */
function requestHash(request: unknown): string {
  return createHash("sha256").update(JSON.stringify(request)).digest("hex");
}

export async function getTransaction(db: Database, id: string): Promise<Transaction> {
  const [row] = await db.$queryRawUnsafe<{ transaction: Transaction }[]>(
    `SELECT ${transactionJson()} AS transaction FROM ledger.transactions t WHERE t.id = $1::uuid`,
    id,
  );
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: "no transaction with that id" });
  return row.transaction;
}

async function findByKey(db: Database, key: string) {
  const [row] = await db.$queryRawUnsafe<{ id: string; request_hash: string }[]>(
    `SELECT id::text, request_hash FROM ledger.transactions WHERE idempotency_key = $1`,
    key,
  );
  return row;
}

async function replay(
  db: Database,
  original: { id: string; request_hash: string },
  hash: string,
): Promise<PostResult> {
  return {
    transaction: await getTransaction(db, original.id),
    replayed: true,
    mismatch: original.request_hash !== hash,
  };
}

/**
 * Writes transactions and their entries in one statement (one round trip, one
 * implicit database transaction: the balance triggers run at its commit) and
 * answers each one's JSON built from the rows written, by the expression a
 * replay reads through; null for a key that is known (or repeated in
 * `txs`: the first one is written). An unknown account has no currency, so
 * its entry breaks the NOT NULL (never silently dropped); unbalanced entries
 * fail the balance trigger; either refuses the whole statement. Keys are
 * inserted in sorted order, so two statements waiting on each other's keys
 * (from two servers) cannot deadlock.
 */
async function writeTransactions(
  db: Database,
  txs: NewTransaction[],
): Promise<Map<NewTransaction, Transaction | null>> {
  const written = new Map<NewTransaction, Transaction | null>(txs.map((tx) => [tx, null]));
  const byKey = new Map<string, NewTransaction>();
  for (const tx of txs) if (!byKey.has(tx.idempotencyKey)) byKey.set(tx.idempotencyKey, tx);
  const unique = [...byKey.values()].map((tx) => ({ tx, id: randomUUID() }));
  const entries = unique.flatMap(({ tx, id }) => tx.entries.map((e, position) => ({ ...e, id, position })));
  const rows = await db.$queryRawUnsafe<{ id: string; transaction: Transaction }[]>(
    `WITH t AS (
       INSERT INTO ledger.transactions (id, idempotency_key, request_hash, description, effective_date, reverses_transaction_id)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::date[], $6::uuid[])
         AS i(id, idempotency_key, request_hash, description, effective_date, reverses_transaction_id)
        ORDER BY idempotency_key
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING *),
     written_entries AS (
       INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
       SELECT gen_random_uuid(), t.id, p.account_id, a.currency, p.amount, t.effective_date, p.position
         FROM unnest($7::uuid[], $8::uuid[], $9::bigint[], $10::int[]) AS p(transaction_id, account_id, amount, position)
         JOIN t ON t.id = p.transaction_id
         LEFT JOIN ledger.accounts a ON a.id = p.account_id
       RETURNING *)
     SELECT t.id::text AS id, ${transactionJson("written_entries")} AS transaction FROM t`,
    unique.map(({ id }) => id),
    unique.map(({ tx }) => tx.idempotencyKey),
    unique.map(({ tx }) => tx.requestHash),
    unique.map(({ tx }) => tx.description),
    unique.map(({ tx }) => tx.effectiveDate),
    unique.map(({ tx }) => tx.reversesTransactionId),
    entries.map((e) => e.id),
    entries.map((e) => e.account_id),
    entries.map((e) => e.amount),
    entries.map((e) => e.position),
  );
  const byId = new Map<string, NewTransaction>(unique.map(({ tx, id }) => [id, tx]));
  for (const row of rows) written.set(byId.get(row.id)!, row.transaction);
  return written;
}

async function writeTransaction(db: Database, tx: NewTransaction): Promise<Transaction | null> {
  return (await writeTransactions(db, [tx])).get(tx)!;
}

/**
 * Posts that arrive while the previous statement runs are written together by
 * the next one (group commit): on two cores a statement and a commit per post
 * cost PostgreSQL and the server more than the posts' own work. A post answers
 * only after the commit that holds it, and a refused statement writes none.
 * At most BATCH_POSTS posts go in one statement; a statement that does not
 * answer within POST_TIMEOUT_MS fails its posts as a database outage (503;
 * a retry with the same key replays it if it was written after all), so one
 * stuck statement cannot hold up the posts queued behind it for longer.
 */
const BATCH_POSTS = 100;
const POST_TIMEOUT_MS = 10_000;
const batchedWriters = new WeakMap<Database, (tx: NewTransaction) => Promise<BatchOutcome>>();

/**
 * The post's JSON, null for a known key, "refused" (the batch's statement was
 * refused, nothing was written) or the error its statement failed with.
 */
type BatchOutcome = Transaction | null | "refused" | { failed: unknown };

/**
 * Failures that may belong to one post of a batch rather than to the batch:
 * bad data (22), constraints (23), a serialization failure or deadlock (40001,
 * 40P01). A batch that fails so is tried again post by post.
 */
const POST_FAILURE = /^(22|23|40001$|40P01$)/;

async function writeBatch(db: Database, txs: NewTransaction[]): Promise<Map<NewTransaction, BatchOutcome>> {
  const outcomes = new Map<NewTransaction, BatchOutcome>();
  for (let start = 0; start < txs.length; start += BATCH_POSTS) {
    const chunk = txs.slice(start, start + BATCH_POSTS);
    // A chunk that fails fails its own posts only: the chunks before it are committed.
    const written = await writeTogether(db, chunk).catch(
      (error: unknown) => new Map<NewTransaction, BatchOutcome>(chunk.map((tx) => [tx, { failed: error }])),
    );
    for (const [tx, outcome] of written) outcomes.set(tx, outcome);
  }
  return outcomes;
}

/** Writes posts in one statement; when bad posts refused it, those that check out are written together once more. */
async function writeTogether(
  db: Database,
  txs: NewTransaction[],
): Promise<Map<NewTransaction, BatchOutcome>> {
  const written = await writeChunk(db, txs);
  if (txs.length > 1 && [...written.values()].every((outcome) => outcome === "refused")) {
    const fine = await postsThatCheckOut(db, txs);
    if (fine.length > 0 && fine.length < txs.length)
      for (const [tx, outcome] of await writeChunk(db, fine)) written.set(tx, outcome);
  }
  return written;
}

async function writeChunk(db: Database, chunk: NewTransaction[]): Promise<Map<NewTransaction, BatchOutcome>> {
  try {
    return await withTimeout(writeTransactions(db, chunk), POST_TIMEOUT_MS);
  } catch (error) {
    const code = databaseErrorCode(error) ?? "";
    const refused = REFUSED_POST.has(code) || (chunk.length > 1 && POST_FAILURE.test(code));
    if (!refused) throw error;
    return new Map(chunk.map((tx) => [tx, "refused"]));
  }
}

/** The posts whose accounts all exist and whose entries balance in each currency. */
async function postsThatCheckOut(db: Database, txs: NewTransaction[]): Promise<NewTransaction[]> {
  const accountIds = [...new Set(txs.flatMap((tx) => tx.entries.map((e) => e.account_id)))];
  const [row] = await db.$queryRawUnsafe<{ currencies: Record<string, string> | null }[]>(
    `SELECT json_object_agg(id, currency) AS currencies FROM ledger.accounts WHERE id = ANY($1::uuid[])`,
    accountIds,
  );
  const currencies = row?.currencies ?? {};
  return txs.filter(
    (tx) => tx.entries.every((e) => e.account_id in currencies) && unbalanced(tx, currencies).length === 0,
  );
}

/** Each currency whose entries do not sum to zero, with its sum. Exact: a running total of safe integers need not be one. */
function unbalanced(tx: NewTransaction, currencies: Record<string, string>): [string, bigint][] {
  const sums = new Map<string, bigint>();
  for (const entry of tx.entries) {
    const currency = currencies[entry.account_id]!;
    sums.set(currency, (sums.get(currency) ?? 0n) + BigInt(entry.amount));
  }
  return [...sums].filter(([, sum]) => sum !== 0n);
}

function writeInBatch(db: Database, tx: NewTransaction): Promise<BatchOutcome> {
  let write = batchedWriters.get(db);
  if (!write) {
    write = batchCalls((txs: NewTransaction[]) => writeBatch(db, txs));
    batchedWriters.set(db, write);
  }
  return write(tx);
}

/**
 * Writes a transaction, or answers the winner's as a replay when its key is
 * known: a concurrent post with the same key waits on the unique key and then
 * inserts nothing. So any number of simultaneous posts with one key make
 * exactly one transaction.
 */
async function insertTransaction(db: Database, tx: NewTransaction): Promise<PostResult> {
  const written = await writeTransaction(db, tx);
  if (written) return { transaction: written, replayed: false, mismatch: false };
  const winner = await findByKey(db, tx.idempotencyKey);
  return replay(db, winner!, tx.requestHash);
}

/**
 * Posts a balanced transaction, or answers the original when the idempotency
 * key is known (even if this request differs: `mismatch` says so). Unknown
 * accounts and unbalanced currencies are 422s that leave the key unused.
 *
 * The common case, a valid post with a new key, is part of one statement
 * with the posts that arrived alongside it: the database itself refuses
 * unknown accounts and unbalanced entries (see writeTransactions), and a
 * refused statement writes nothing. Anything but a write (a known key, a
 * refusal) takes the checked path, alone, which answers the replay or names
 * what is wrong.
 */
export async function postTransaction(db: Database, input: PostTransactionInput): Promise<PostResult> {
  const hash = requestHash({ kind: "post", ...input, description: input.description ?? null });
  const tx: NewTransaction = {
    idempotencyKey: input.idempotency_key,
    requestHash: hash,
    description: input.description ?? null,
    effectiveDate: input.effective_date ?? todayUtc(),
    reversesTransactionId: null,
    // The checks compare ids as text, as PostgreSQL writes them: lower case.
    entries: input.entries.map((e) => ({ ...e, account_id: e.account_id.toLowerCase() })),
  };
  const written = await writeInBatch(db, tx);
  if (written && typeof written === "object" && "failed" in written) throw written.failed;
  if (written && written !== "refused") return { transaction: written, replayed: false, mismatch: false };
  return postChecked(db, tx);
}

/**
 * How the database refuses a post on its merits: an entry of an unknown
 * account has no currency (not_null_violation), entries that do not balance
 * fail the trigger (check_violation). Any other failure is raised as it is.
 */
const REFUSED_POST = new Set(["23502", "23514"]);

/** A post checked step by step: known key (replay), unknown accounts, balance per currency, then the write. */
async function postChecked(db: Database, tx: NewTransaction): Promise<PostResult> {
  const accountIds = [...new Set(tx.entries.map((e) => e.account_id))];
  const [state] = await db.$queryRawUnsafe<
    { existing: { id: string; request_hash: string } | null; currencies: Record<string, string> | null }[]
  >(
    `SELECT (SELECT json_build_object('id', id, 'request_hash', request_hash) FROM ledger.transactions WHERE idempotency_key = $1) AS existing,
            (SELECT json_object_agg(id, currency) FROM ledger.accounts WHERE id = ANY($2::uuid[])) AS currencies`,
    tx.idempotencyKey,
    accountIds,
  );
  if (state?.existing) return replay(db, state.existing, tx.requestHash);

  const currencies = state?.currencies ?? {};
  const unknown = accountIds.filter((id) => !(id in currencies));
  if (unknown.length) {
    throw new DomainError(
      "UNPROCESSABLE_CONTENT",
      "UNKNOWN_ACCOUNT",
      `unknown account${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`,
    );
  }
  const sums = unbalanced(tx, currencies);
  if (sums.length) {
    throw new DomainError(
      "UNPROCESSABLE_CONTENT",
      "UNBALANCED_TRANSACTION",
      `entries must sum to zero in each currency: ${sums.map(([c, s]) => `${c} sums to ${s}`).join(", ")}`,
    );
  }

  return insertTransaction(db, tx);
}

/**
 * Posts the reversal of a transaction: every amount negated, `reverses_transaction_id`
 * set. A transaction is reversed at most once (409 after that); the key replays like a post.
 */
export async function reverseTransaction(
  db: Database,
  input: {
    id: string;
    idempotency_key: string;
    description?: string | null;
    effective_date?: string | undefined;
  },
): Promise<PostResult> {
  const hash = requestHash({ kind: "reversal", ...input, description: input.description ?? null });
  const existing = await findByKey(db, input.idempotency_key);
  if (existing) return replay(db, existing, hash);

  const original = await getTransaction(db, input.id);
  try {
    return await insertTransaction(db, {
      idempotencyKey: input.idempotency_key,
      requestHash: hash,
      description: input.description ?? `Reversal of ${original.id}`,
      effectiveDate: input.effective_date ?? todayUtc(),
      reversesTransactionId: original.id,
      entries: original.entries.map((e) => ({ account_id: e.account_id, amount: -e.amount })),
    });
  } catch (error) {
    if (isUniqueViolation(error, "transactions_reverses_transaction_id_key")) {
      // A concurrent reversal with the same key got there first: this one is its replay.
      const winner = await findByKey(db, input.idempotency_key);
      if (winner) return replay(db, winner, hash);
      throw new TRPCError({
        code: "CONFLICT",
        message: `transaction ${original.id} has already been reversed`,
      });
    }
    throw error;
  }
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth += 1) {
    const candidate = current as {
      message?: unknown;
      cause?: unknown;
      constraint?: unknown;
      originalMessage?: unknown;
    };
    const text = `${String(candidate.message ?? "")} ${String(candidate.originalMessage ?? "")} ${String(candidate.constraint ?? "")}`;
    if (text.includes(constraint)) return true;
    current = candidate.cause;
  }
  return false;
}
