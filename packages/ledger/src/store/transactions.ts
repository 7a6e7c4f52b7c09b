import { createHash } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { isConstraintViolation, type Database } from "@app/db";
import { DomainError } from "@app/rest";
import type { PostTransactionInput, Transaction } from "../schemas.ts";
import { todayUtc } from "../today-utc.ts";
import { writeWithGroupCommit } from "./group-commit.ts";
import { insertTransactions, unbalancedCurrencies, type NewTransaction } from "./insert-transactions.ts";
import { transactionJson } from "./sql.ts";

export interface PostResult {
  transaction: Transaction;
  /** The key was known: this is the original transaction, nothing was posted. */
  replayed: boolean;
  /** A replay whose request differs from the original's. */
  mismatch: boolean;
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
 * Writes a transaction, or answers the winner's as a replay when its key is
 * known: a concurrent post with the same key waits on the unique key and then
 * inserts nothing. So any number of simultaneous posts with one key make
 * exactly one transaction.
 */
async function insertOrReplay(db: Database, tx: NewTransaction): Promise<PostResult> {
  const written = (await insertTransactions(db, [tx])).get(tx);
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
 * with the posts that arrived alongside it (group-commit.ts): the database
 * itself refuses unknown accounts and unbalanced entries (see
 * insertTransactions), and a refused statement writes nothing. Anything but a write (a known key, a
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
  const written = await writeWithGroupCommit(db, tx);
  if (written && typeof written === "object" && "failed" in written) throw written.failed;
  if (written && written !== "refused") return { transaction: written, replayed: false, mismatch: false };
  return postChecked(db, tx);
}

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
  const sums = unbalancedCurrencies(tx, currencies);
  if (sums.length) {
    throw new DomainError(
      "UNPROCESSABLE_CONTENT",
      "UNBALANCED_TRANSACTION",
      `entries must sum to zero in each currency: ${sums.map(([c, s]) => `${c} sums to ${s}`).join(", ")}`,
    );
  }

  return insertOrReplay(db, tx);
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
    return await insertOrReplay(db, {
      idempotencyKey: input.idempotency_key,
      requestHash: hash,
      description: input.description ?? `Reversal of ${original.id}`,
      effectiveDate: input.effective_date ?? todayUtc(),
      reversesTransactionId: original.id,
      entries: original.entries.map((e) => ({ account_id: e.account_id, amount: -e.amount })),
    });
  } catch (error) {
    if (isConstraintViolation(error, "transactions_reverses_transaction_id_key")) {
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
