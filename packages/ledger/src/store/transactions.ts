import { createHash } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { databaseErrorCode, type Database } from "@app/db";
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
 * Writes a transaction and its entries in one statement (so one round trip
 * and one implicit database transaction; the balance triggers run at its
 * commit) and answers the transaction's JSON built from the rows written, by
 * the expression a replay reads through; null when the key is known. An
 * unknown account has no currency, so the entry breaks its NOT NULL (never
 * silently dropped); unbalanced entries fail the balance trigger.
 */
async function writeTransaction(db: Database, tx: NewTransaction): Promise<Transaction | null> {
  const rows = await db.$queryRawUnsafe<{ transaction: Transaction }[]>(
    `WITH t AS (
       INSERT INTO ledger.transactions (id, idempotency_key, request_hash, description, effective_date, reverses_transaction_id)
       VALUES (gen_random_uuid(), $1, $2, $3, $4::date, $5::uuid)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING *),
     written_entries AS (
       INSERT INTO ledger.entries (id, transaction_id, account_id, currency, amount, effective_date, position)
       SELECT gen_random_uuid(), t.id, p.account_id, a.currency, p.amount, t.effective_date, p.position - 1
         FROM t, unnest($6::uuid[], $7::bigint[]) WITH ORDINALITY AS p(account_id, amount, position)
         LEFT JOIN ledger.accounts a ON a.id = p.account_id
       RETURNING *)
     SELECT ${transactionJson("written_entries")} AS transaction FROM t`,
    tx.idempotencyKey,
    tx.requestHash,
    tx.description,
    tx.effectiveDate,
    tx.reversesTransactionId,
    tx.entries.map((e) => e.account_id),
    tx.entries.map((e) => e.amount),
  );
  return rows[0]?.transaction ?? null;
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
 * The common case, a valid post with a new key, is one statement: the
 * database itself refuses unknown accounts and unbalanced entries (see
 * writeTransaction), and a refused statement writes nothing. Anything but a
 * write (a known key, a refusal) takes the checked path, which answers the
 * replay or names what is wrong.
 */
export async function postTransaction(db: Database, input: PostTransactionInput): Promise<PostResult> {
  const hash = requestHash({ kind: "post", ...input, description: input.description ?? null });
  const tx: NewTransaction = {
    idempotencyKey: input.idempotency_key,
    requestHash: hash,
    description: input.description ?? null,
    effectiveDate: input.effective_date ?? todayUtc(),
    reversesTransactionId: null,
    entries: input.entries,
  };
  try {
    const written = await writeTransaction(db, tx);
    if (written) return { transaction: written, replayed: false, mismatch: false };
  } catch (error) {
    if (!REFUSED_POST.has(databaseErrorCode(error) ?? "")) throw error;
  }
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
  // Exact sums: each amount is a safe integer, a running total of them need not be.
  const sums = new Map<string, bigint>();
  for (const entry of tx.entries) {
    const currency = currencies[entry.account_id]!;
    sums.set(currency, (sums.get(currency) ?? 0n) + BigInt(entry.amount));
  }
  const unbalanced = [...sums].filter(([, sum]) => sum !== 0n);
  if (unbalanced.length) {
    throw new DomainError(
      "UNPROCESSABLE_CONTENT",
      "UNBALANCED_TRANSACTION",
      `entries must sum to zero in each currency: ${unbalanced.map(([c, s]) => `${c} sums to ${s}`).join(", ")}`,
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
