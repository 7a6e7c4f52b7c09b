import { isConstraintViolation, queryRows, type Database } from "@app/db";
import { DomainError } from "@app/rest/errors";
import type { PostTransactionInput, Transaction } from "../schemas.ts";
import { todayUtc } from "../today-utc.ts";
import { writeWithGroupCommit } from "./group-commit.ts";
import { scopedKey, type NewTransaction } from "./insert-transactions.ts";
import { knownTransactions, postChecked, replayOf, type PostOutcome } from "./post-checked.ts";
import { inKeyOrder, requestHash } from "./request-hash.ts";
import { TRANSACTION_JSON } from "./sql.ts";
import { alreadyReversed } from "./reversal-conflict.ts";
import { rememberWrittenHold } from "./written-holds.ts";

export interface PostResult {
  transaction: Transaction;
  /** The key was known: this is the original transaction, nothing was posted. */
  replayed: boolean;
  /** A replay whose request differs from the original's. */
  mismatch: boolean;
}

export async function getTransaction(db: Database, id: string): Promise<Transaction> {
  const [row] = await queryRows<{ transaction: Transaction }>(
    db,
    `SELECT ${TRANSACTION_JSON} AS transaction FROM ledger.transactions t WHERE t.id = $1::uuid`,
    id,
  );
  if (!row) throw transactionNotFound();
  return row.transaction;
}

export const transactionNotFound = () => new DomainError(404, "no transaction with that id");

/**
 * Entries as the store writes them, in one shape for the request hash: ids
 * in lower case, as PostgreSQL writes them (the checks compare them as text).
 */
export const entriesAsStored = (entries: readonly { account_id: string; amount: number }[]) =>
  entries.map((e) => ({ account_id: e.account_id.toLowerCase(), amount: e.amount }));

/** `principal`'s post as the store writes it: hashed to tell a replay from a reused key, dated, ids in lower case. */
export function newTransactionOf(input: PostTransactionInput, principal: string): NewTransaction {
  const { idempotency_key, effective_date, hold } = input;
  const description = input.description ?? null;
  const metadata = input.metadata ?? {};
  const entries = entriesAsStored(input.entries);
  return {
    principal,
    idempotencyKey: idempotency_key,
    requestHash: requestHash({
      kind: "post",
      idempotency_key,
      description,
      effective_date,
      entries,
      hold: hold && { expires_in_seconds: hold.expires_in_seconds },
      metadata: inKeyOrder(metadata),
    }),
    description,
    effectiveDate: effective_date ?? todayUtc(),
    reversesTransactionId: null,
    holdSeconds: hold?.expires_in_seconds ?? null,
    holdId: null,
    metadata,
    entries,
  };
}

/**
 * Posts a balanced transaction, or answers the original when the idempotency
 * key is known (even if this request differs: `mismatch` says so). Unknown
 * accounts and unbalanced currencies are 422s that leave the key unused.
 *
 * The common case, a valid post with a new key, is part of one statement
 * with the posts that arrived alongside it (group-commit.ts): the database
 * itself refuses unknown accounts and unbalanced entries (see
 * insertTransactions), and a refused statement writes nothing. A known key
 * (or one taken by another post meanwhile) is answered in the same group as
 * a replay; only the posts of a refused statement take the checked path
 * (post-checked.ts), which tells the good from the refused.
 */
export async function postTransaction(
  db: Database,
  input: PostTransactionInput,
  principal: string,
): Promise<PostResult> {
  const tx = newTransactionOf(input, principal);
  const grouped = await writeWithGroupCommit(db, tx);
  if (grouped && "failed" in grouped) throw grouped.failed;
  const result = postResultOf(grouped ?? (await postChecked(db, [tx])).get(tx)!, tx.requestHash);
  if (tx.holdSeconds !== null && !result.replayed) rememberWrittenHold(db, result.transaction);
  return result;
}

/** A post's outcome as its answer to a request with `requestHash`: the transaction, or the error it was refused with. */
export function postResultOf(outcome: PostOutcome, requestHash: string): PostResult {
  if (outcome.status === "refused") throw outcome.error;
  return {
    transaction: outcome.transaction,
    replayed: outcome.status === 200,
    mismatch: outcome.status === 200 && outcome.originalHash !== requestHash,
  };
}

/** The transaction of the principal's known key, as a replay; undefined for an unknown key. */
export async function replayOfKnownKey(
  db: Database,
  key: Pick<NewTransaction, "principal" | "idempotencyKey">,
  requestHash: string,
): Promise<PostResult | undefined> {
  const original = (await knownTransactions(db, [key])).get(scopedKey(key));
  return original && postResultOf(replayOf(original), requestHash);
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
    metadata?: Record<string, string> | undefined;
  },
  principal: string,
): Promise<PostResult> {
  const hash = requestHash({
    kind: "reversal",
    id: input.id.toLowerCase(),
    idempotency_key: input.idempotency_key,
    description: input.description ?? null,
    effective_date: input.effective_date,
    metadata: inKeyOrder(input.metadata ?? {}),
  });
  const key = { principal, idempotencyKey: input.idempotency_key };
  const known = await replayOfKnownKey(db, key, hash);
  if (known) return known;

  const original = await getTransaction(db, input.id);
  if (original.expires_at !== null) {
    throw new DomainError(409, `transaction ${original.id} is a hold: void it instead, or reverse its post`, {
      error: "HOLD_NOT_REVERSIBLE",
    });
  }
  const tx: NewTransaction = {
    ...key,
    requestHash: hash,
    description: input.description ?? `Reversal of ${original.id}`,
    effectiveDate: input.effective_date ?? todayUtc(),
    reversesTransactionId: original.id,
    holdSeconds: null,
    holdId: null,
    metadata: input.metadata ?? {},
    entries: original.entries.map((e) => ({ account_id: e.account_id, amount: -e.amount })),
  };
  try {
    // Checked like a post (a reversal may pass a balance limit too; a reversal there is, found first,
    // is a 409); a concurrent post with the key waits on the unique key, then inserts nothing and replays.
    return postResultOf((await postChecked(db, [tx])).get(tx)!, hash);
  } catch (error) {
    if (isConstraintViolation(error, "transactions_reverses_transaction_id_key")) {
      // A concurrent reversal with the same key got there first: this one is its replay.
      const replayed = await replayOfKnownKey(db, key, hash);
      if (replayed) return replayed;
      const [reversal] = await queryRows<{ id: string }>(
        db,
        `SELECT id::text FROM ledger.transactions WHERE reverses_transaction_id = $1`,
        original.id,
      );
      throw alreadyReversed(original.id, reversal?.id);
    }
    throw error;
  }
}
