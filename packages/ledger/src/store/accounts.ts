import { randomUUID } from "node:crypto";
import {
  inTransaction,
  isConstraintViolation,
  isoTimestampSql,
  nextUpdatedAtOf,
  queryRows,
  type Database,
  type Queryable,
} from "@app/db";
import { DomainError, invalidRequestError } from "@app/rest/errors";
import { versionConflict, type VersionCheck } from "@app/rest/preconditions";
import { cursorPart, listCursor } from "../list-cursor.ts";
import type { Account, AccountFilters, AccountType } from "../schemas.ts";
import { inKeyOrder, requestHash } from "./request-hash.ts";
import { ACCOUNT_JSON, statementValues } from "./sql.ts";

type NewAccount = {
  name: string;
  type: AccountType;
  currency: string;
  min_balance?: number | null | undefined;
  max_balance?: number | null | undefined;
  metadata?: Record<string, string> | undefined;
};

const INSERT_ACCOUNT = `INSERT INTO ledger.accounts AS a (id, name, type, currency, min_balance, max_balance, metadata)
  VALUES ($1::uuid, $2, $3::ledger.account_type, $4, $5::bigint, $6::bigint, $7::jsonb)
  RETURNING a.id, ${ACCOUNT_JSON} AS account`;

/** The values of INSERT_ACCOUNT's parameters, $1 to $7. */
const accountValues = (input: NewAccount) => [
  randomUUID(),
  input.name,
  input.type,
  input.currency,
  input.min_balance ?? null,
  input.max_balance ?? null,
  JSON.stringify(input.metadata ?? {}),
];

export async function createAccount(db: Database, input: NewAccount): Promise<Account> {
  const [row] = await queryRows<{ account: Account }>(db, INSERT_ACCOUNT, ...accountValues(input));
  return row!.account;
}

/** What a create means, for its Idempotency-Key: the account it makes, whatever the body's order or its defaults sent. */
const accountRequestHash = (input: NewAccount) =>
  requestHash({
    name: input.name,
    type: input.type,
    currency: input.currency,
    min_balance: input.min_balance ?? null,
    max_balance: input.max_balance ?? null,
    metadata: inKeyOrder(input.metadata ?? {}),
  });

/**
 * How keys were hashed before 2026-11-30: the body as parsed, in its order.
 * A key of then, kept as long as the ledger, still answers its retry.
 */
const hashAsSent = (input: NewAccount) => requestHash(input);

/**
 * createAccount under the principal's Idempotency-Key (docs/ledger-api.md,
 * "Idempotency"):
 * the account and its key are written by one statement, so a create that
 * fails writes neither. When the key is taken (before, or by a concurrent
 * create that committed first: the statement waits for it), nothing of this
 * create is written and the key's first answer decides: the same body gets
 * it again (`replayed`), another body a 422.
 */
export async function createAccountOnce(
  db: Database,
  input: NewAccount,
  principal: string,
  idempotencyKey: string,
): Promise<{ account: Account; replayed: boolean }> {
  const hash = accountRequestHash(input);
  try {
    const [row] = await queryRows<{ account: Account }>(
      db,
      `WITH a AS (${INSERT_ACCOUNT}),
            k AS (INSERT INTO ledger.account_idempotency_keys (principal, idempotency_key, request_hash, account_id, answer)
                  SELECT $8, $9, $10, a.id, a.account FROM a)
       SELECT account FROM a`,
      ...accountValues(input),
      principal,
      idempotencyKey,
      hash,
    );
    return { account: row!.account, replayed: false };
  } catch (error) {
    if (!isConstraintViolation(error, "account_idempotency_keys_pkey")) throw error;
  }
  const [original] = await queryRows<{ request_hash: string; answer: Account }>(
    db,
    `SELECT request_hash, answer FROM ledger.account_idempotency_keys WHERE principal = $1 AND idempotency_key = $2`,
    principal,
    idempotencyKey,
  );
  if (original!.request_hash !== hash && original!.request_hash !== hashAsSent(input)) {
    throw new DomainError(
      422,
      "this Idempotency-Key was used with another body; send a new key for a new account",
      {
        error: "IDEMPOTENCY_KEY_REUSED",
      },
    );
  }
  return { account: original!.answer, replayed: true };
}

const accountsCursor = listCursor("accounts", cursorPart.bigint());

/** A page of accounts in creation order, those matching every filter given. */
export async function listAccounts(
  db: Database,
  filters: AccountFilters,
  limit: number,
  cursor: string | undefined,
): Promise<{ items: Account[]; next_cursor: string | null }> {
  const { values, add } = statementValues(limit + 1);
  const conditions = [
    cursor !== undefined && `a.seq > ${add(accountsCursor.decode(null, cursor)[0])}::bigint`,
    filters.type && `a.type = ${add(filters.type)}::ledger.account_type`,
    filters.currency && `a.currency = ${add(filters.currency)}`,
    filters.metadata && `a.metadata @> ${add(JSON.stringify(filters.metadata))}::jsonb`,
  ].filter((condition) => typeof condition === "string");
  const rows = await queryRows<{ seq: string; account: Account }>(
    db,
    `SELECT a.seq::text AS seq, ${ACCOUNT_JSON} AS account FROM ledger.accounts a
      ${conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : ""}
      ORDER BY a.seq LIMIT $1`,
    ...values,
  );
  const last = rows.length > limit ? rows[limit - 1]! : null;
  return {
    items: rows.slice(0, limit).map((row) => row.account),
    next_cursor: last && accountsCursor.encode(null, [last.seq]),
  };
}

export async function getAccount(db: Database, id: string): Promise<Account> {
  const [row] = await queryRows<{ account: Account }>(
    db,
    `SELECT ${ACCOUNT_JSON} AS account FROM ledger.accounts a WHERE a.id = $1::uuid`,
    id,
  );
  if (!row) throw accountNotFound();
  return row.account;
}

export const accountNotFound = () => new DomainError(404, "no account with that id");

type AccountChange = {
  name?: string | undefined;
  min_balance?: number | null | undefined;
  max_balance?: number | null | undefined;
  metadata?: Record<string, string> | undefined;
};

/**
 * Changes an account's name, bounds and metadata (those given; null removes a bound).
 * The new bounds apply to later posts: a balance that already breaks one is
 * left as it is. The update waits for posts that hold the account's lock.
 * With `check` (the request's If-Match...), only over the version it names
 * (412 otherwise; a 404 first), read and locked in the same transaction.
 */
export async function patchAccount(
  db: Database,
  id: string,
  change: AccountChange,
  check?: VersionCheck,
): Promise<Account> {
  if (!check) return updateAccount(db, id, change);
  return inTransaction(db, async (tx) => {
    const [locked] = await queryRows<{ version: string }>(
      tx,
      `SELECT ${isoTimestampSql("a.updated_at")} AS version FROM ledger.accounts a WHERE a.id = $1::uuid FOR UPDATE`,
      id,
    );
    if (!locked) throw accountNotFound();
    if (!check(locked.version)) throw versionConflict("account", locked.version);
    return updateAccount(tx, id, change);
  });
}

async function updateAccount(db: Queryable, id: string, change: AccountChange): Promise<Account> {
  try {
    const [row] = await queryRows<{ account: Account }>(
      db,
      `UPDATE ledger.accounts AS a SET
         name = coalesce($2, a.name),
         min_balance = CASE WHEN $3::boolean THEN $4::bigint ELSE a.min_balance END,
         max_balance = CASE WHEN $5::boolean THEN $6::bigint ELSE a.max_balance END,
         metadata = coalesce($7::jsonb, a.metadata),
         updated_at = ${nextUpdatedAtOf("a")}
       WHERE a.id = $1::uuid
       RETURNING ${ACCOUNT_JSON} AS account`,
      id,
      change.name ?? null,
      change.min_balance !== undefined,
      change.min_balance ?? null,
      change.max_balance !== undefined,
      change.max_balance ?? null,
      change.metadata === undefined ? null : JSON.stringify(change.metadata),
    );
    if (!row) throw accountNotFound();
    return row.account;
  } catch (error) {
    if (!isConstraintViolation(error, "accounts_bounds_ordered")) throw error;
    // One of the two is the account's own: the database's check saw the pair.
    throw invalidRequestError([{ path: "min_balance", message: "must be at most max_balance" }]);
  }
}
