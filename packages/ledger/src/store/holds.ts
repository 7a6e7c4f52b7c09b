import {
  batchCallsPerClient,
  isConstraintViolation,
  isRefusedValue,
  queryRows,
  type Database,
} from "@app/db";
import { DomainError } from "@app/rest/errors";
import { z } from "zod";
import { cursorPart, listCursor } from "../list-cursor.ts";
import type { PostHoldInput, Transaction } from "../schemas.ts";
import { todayUtc } from "../today-utc.ts";
import { accountNotFound } from "./accounts.ts";
import { writeWithGroupCommit } from "./group-commit.ts";
import { holdConflict } from "./hold-conflict.ts";
import { forgetWrittenHold, writtenHold, type HeldTransaction } from "./written-holds.ts";
import { lockBoundedSql, scopedKey, type NewTransaction } from "./insert-transactions.ts";
import {
  byScopedKey,
  KNOWN_TRANSACTIONS_SQL,
  postChecked,
  replayOf,
  type KnownTransaction,
} from "./post-checked.ts";
import { inKeyOrder, requestHash } from "./request-hash.ts";
import { TRANSACTION_JSON } from "./sql.ts";
import {
  entriesAsStored,
  getTransaction,
  postResultOf,
  transactionNotFound,
  replayOfKnownKey,
  type PostResult,
} from "./transactions.ts";

/**
 * A resolution that lost to another, or came after the expiry, as the
 * database tells it; events_ends_hold_key: begun before the expiry, it would
 * commit after the sweep that wrote the hold's hold.expired.
 */
const LOST_RESOLUTION = [
  "hold_resolutions_pkey",
  "transactions_hold_id_key",
  "hold_resolutions_before_expiry",
  "hold_resolutions_void_key",
  "events_ends_hold_key",
];
const lostResolution = (error: unknown) => LOST_RESOLUTION.some((name) => isConstraintViolation(error, name));

/**
 * Posts a pending hold (POST /transactions/{id}/post): a new transaction,
 * `hold_id` naming the hold, with the hold's amounts or, given `entries`, a
 * part of them (each account in the hold, with its sign, at most its amount
 * there); the rest is released. Idempotent by the post's key like any post,
 * and written like one, with the posts that arrive alongside it
 * (group-commit.ts). A hold already resolved or expired is a 409 naming
 * which, also when a concurrent post or void won (one resolution per hold:
 * its primary key). A hold this server wrote is not read first
 * (written-holds.ts); another is read with its key (readHoldPostState).
 */
export function postHold(db: Database, input: PostHoldInput, principal: string): Promise<PostResult> {
  return withPostNamed(db, input.id, () => postPendingHold(db, input, principal));
}

async function postPendingHold(db: Database, input: PostHoldInput, principal: string): Promise<PostResult> {
  const hash = requestHash({
    kind: "hold-post",
    id: input.id.toLowerCase(),
    idempotency_key: input.idempotency_key,
    description: input.description ?? null,
    effective_date: input.effective_date,
    entries: input.entries && entriesAsStored(input.entries),
    metadata: inKeyOrder(input.metadata ?? {}),
  });
  const key = { principal, idempotencyKey: input.idempotency_key };
  const holdId = input.id.toLowerCase();
  // A capture refused on the hold this server wrote is read as anywhere first: its key's replay,
  // or the hold's end on another server (a 409), comes before the 422.
  let hold = writtenHold(db, holdId);
  if (hold && input.entries && captureIssues(hold, input.entries).length > 0) hold = undefined;
  if (!hold) {
    const state = await readHoldPostState(db, { ...key, holdId });
    if (state.known) return postResultOf(replayOf(state.known), hash);
    if (!state.hold) throw transactionNotFound();
    const conflict = holdConflict(state.hold);
    if (conflict) throw conflict;
    hold = state.hold;
  }
  const tx: NewTransaction = {
    ...key,
    requestHash: hash,
    description: input.description ?? hold.description,
    effectiveDate: input.effective_date ?? todayUtc(),
    reversesTransactionId: null,
    holdSeconds: null,
    holdId: hold.id,
    metadata: input.metadata ?? {},
    entries: input.entries
      ? captureOf(hold, input.entries)
      : hold.entries.map(({ account_id, amount }) => ({ account_id, amount })),
  };
  try {
    const grouped = await writeWithGroupCommit(db, tx);
    if (grouped && "failed" in grouped) throw grouped.failed;
    const result = postResultOf(grouped ?? (await postChecked(db, [tx])).get(tx)!, hash);
    // Posted now; a replay (its key's transaction) leaves the hold as it was.
    if (!result.replayed) forgetWrittenHold(db, holdId);
    return result;
  } catch (error) {
    if (!lostResolution(error)) throw error;
    forgetWrittenHold(db, holdId);
    // Another post or void got there first (or the hold expired meanwhile); a post with this key is its replay.
    const replayed = await replayOfKnownKey(db, key, hash);
    if (replayed) return replayed;
    throw holdConflict(await getTransaction(db, hold.id)) ?? error;
  }
}

/**
 * The 409 HOLD_ALREADY_POSTED of `resolve` naming the transaction that posted
 * the hold, so that a caller whose first answer was lost (and who tried again
 * with a new key) finds its capture; any other outcome as it is.
 */
async function withPostNamed(db: Database, holdId: string, resolve: () => Promise<PostResult>) {
  try {
    return await resolve();
  } catch (error) {
    if (!(error instanceof DomainError) || error.errorName !== "HOLD_ALREADY_POSTED") throw error;
    const [resolution] = await queryRows<{ posted_by: string | null }>(
      db,
      `SELECT transaction_id::text AS posted_by FROM ledger.hold_resolutions WHERE hold_id = $1`,
      holdId.toLowerCase(),
    );
    if (!resolution?.posted_by) throw error;
    throw new DomainError(409, `${error.message} by transaction ${resolution.posted_by}`, {
      error: "HOLD_ALREADY_POSTED",
    });
  }
}

interface HoldPostRequest {
  principal: string;
  idempotencyKey: string;
  holdId: string;
}

/** What a post of a hold starts from: the transaction its key already made, and the hold (null: none). */
interface HoldPostState {
  known: KnownTransaction | undefined;
  hold: Transaction | null;
}

/**
 * The state of a post of a hold this server did not write, read in one
 * statement with the posts of such holds that arrive alongside it (a plain
 * post does not read before it writes: with one read each, pairs of a hold
 * and its post would cost a statement more than two posts). A value the
 * database refuses in one request is that request's own failure, not its
 * neighbours'.
 */
const readHoldPostState: (db: Database, request: HoldPostRequest) => Promise<HoldPostState> =
  batchCallsPerClient(readHoldPostStates, {
    isolate: isRefusedValue,
  });

async function readHoldPostStates(db: Database, requests: HoldPostRequest[]) {
  const [row] = await queryRows<{
    known: KnownTransaction[] | null;
    holds: Record<string, Transaction> | null;
  }>(
    db,
    `SELECT (${KNOWN_TRANSACTIONS_SQL}) AS known,
            (SELECT json_object_agg(t.id, ${TRANSACTION_JSON}) FROM ledger.transactions t WHERE t.id = ANY($3::uuid[])) AS holds`,
    requests.map((r) => r.principal),
    requests.map((r) => r.idempotencyKey),
    requests.map((r) => r.holdId),
  );
  const known = byScopedKey(row?.known);
  const holds = row?.holds ?? {};
  return new Map(
    requests.map((r) => [r, { known: known.get(scopedKey(r)), hold: holds[r.holdId] ?? null }] as const),
  );
}

/**
 * The entries of a partial capture, ids in lower case, or a 422
 * INVALID_CAPTURE naming each entry that leaves the hold: an account not in
 * it, the other sign, or more than the hold's amount there (per account, its
 * entries summed). Whether they balance is checked as for any post.
 */
function captureOf(hold: HeldTransaction, entries: CapturedEntry[]) {
  const issues = captureIssues(hold, entries);
  if (issues.length > 0) {
    throw new DomainError(
      422,
      `not a capture of hold ${hold.id}: ${issues.map((i) => i.message).join("; ")}`,
      {
        error: "INVALID_CAPTURE",
        details: { issues },
      },
    );
  }
  return entries.map((e) => ({ ...e, account_id: e.account_id.toLowerCase() }));
}

type CapturedEntry = { account_id: string; amount: number };

/** Each account of `entries` that leaves the hold, at its first entry (captureOf). */
function captureIssues(hold: HeldTransaction, entries: CapturedEntry[]) {
  const held = netsByAccount(hold.entries);
  const captured = netsByAccount(entries.map((e) => ({ ...e, account_id: e.account_id.toLowerCase() })));
  return [...captured].flatMap(([account, { net, first }]) => {
    const reserved = held.get(account)?.net ?? 0n;
    const message =
      reserved === 0n
        ? `account ${account} is not in the hold`
        : reserved > 0n !== net > 0n
          ? `account ${account} is held ${reserved}: a capture there must have the same sign, not ${net}`
          : (net > 0n ? net > reserved : net < reserved)
            ? `account ${account} is held ${reserved}: ${net} is more`
            : null;
    return message ? [{ path: `entries.${first}`, message }] : [];
  });
}

/** Each account's entries summed, with the position of its first entry. */
function netsByAccount(entries: CapturedEntry[]) {
  const nets = new Map<string, { net: bigint; first: number }>();
  entries.forEach(({ account_id, amount }, position) => {
    const known = nets.get(account_id);
    nets.set(account_id, { net: (known?.net ?? 0n) + BigInt(amount), first: known?.first ?? position });
  });
  return nets;
}

/**
 * Voids a pending hold (POST /transactions/{id}/void): its reservation ends;
 * the answer is the hold, `voided`. A void's key is the principal's among
 * voids: a retry answers the hold again (a replay). A hold already resolved
 * or expired is a 409, as for postHold.
 */
export function voidHold(
  db: Database,
  input: { id: string; idempotency_key: string },
  principal: string,
): Promise<PostResult> {
  return withPostNamed(db, input.id, () => voidPendingHold(db, input, principal));
}

async function voidPendingHold(
  db: Database,
  input: { id: string; idempotency_key: string },
  principal: string,
): Promise<PostResult> {
  const hash = requestHash({
    kind: "void",
    id: input.id.toLowerCase(),
    idempotency_key: input.idempotency_key,
  });
  const known = await knownVoid(db, principal, input.idempotency_key, hash);
  if (known) return known;

  const hold = await getTransaction(db, input.id.toLowerCase());
  const refusal = holdConflict(hold);
  if (refusal) {
    // A copy of this void under the same key may have committed since knownVoid read: a replay, not a 409.
    const replayed = await knownVoid(db, principal, input.idempotency_key, hash);
    if (replayed) return replayed;
    throw refusal;
  }
  try {
    // The hold's bounded accounts are locked first, in id order, as a post of it locks them: a void
    // and a post racing on one hold then queue on the accounts, never deadlock on them and its key.
    await queryRows(
      db,
      `WITH ${lockBoundedSql(5)}
       INSERT INTO ledger.hold_resolutions (hold_id, transaction_id, principal, idempotency_key, request_hash)
       SELECT $1::uuid, NULL, $2, $3, $4 WHERE (SELECT count(*) FROM bounded) >= 0`,
      hold.id,
      principal,
      input.idempotency_key,
      hash,
      hold.entries.map((e) => e.account_id),
    );
  } catch (error) {
    if (!lostResolution(error)) throw error;
    const replayed = await knownVoid(db, principal, input.idempotency_key, hash);
    if (replayed) return replayed;
    throw holdConflict(await getTransaction(db, hold.id)) ?? error;
  }
  return { transaction: { ...hold, status: "voided" }, replayed: false, mismatch: false };
}

/** The hold voided under the principal's key, as a replay; undefined for a key no void has. */
async function knownVoid(
  db: Database,
  principal: string,
  idempotencyKey: string,
  requestHash: string,
): Promise<PostResult | undefined> {
  const [row] = await queryRows<{ request_hash: string; hold: Transaction }>(
    db,
    `SELECT r.request_hash, ${TRANSACTION_JSON} AS hold
       FROM ledger.hold_resolutions r JOIN ledger.transactions t ON t.id = r.hold_id
      WHERE r.principal = $1 AND r.idempotency_key = $2 AND r.transaction_id IS NULL`,
    principal,
    idempotencyKey,
  );
  return row && { transaction: row.hold, replayed: true, mismatch: row.request_hash !== requestHash };
}

const holdsCursor = listCursor("holds", cursorPart.datetime(), z.uuid());

/** A page of the account's open holds, newest first (created_at, then id, descending). */
export async function listOpenHolds(db: Database, accountId: string, limit: number, cursor?: string) {
  const scope = accountId.toLowerCase();
  const after = cursor === undefined ? null : holdsCursor.decode(scope, cursor);
  const [row] = await queryRows<{ found: boolean; holds: Transaction[] }>(
    db,
    `SELECT EXISTS (SELECT 1 FROM ledger.accounts WHERE id = $1::uuid) AS found,
            (SELECT coalesce(json_agg(x.hold ORDER BY x.created_at DESC, x.id DESC), '[]'::json)
               FROM (SELECT ${TRANSACTION_JSON} AS hold, t.created_at, t.id FROM ledger.transactions t
                      WHERE t.id IN (SELECT h.hold_id FROM ledger.hold_entries h
                                      WHERE h.account_id = $1::uuid AND h.expires_at > now()
                                        AND NOT EXISTS (SELECT 1 FROM ledger.hold_resolutions r WHERE r.hold_id = h.hold_id))
                        AND ($3::timestamptz IS NULL OR (t.created_at, t.id) < ($3::timestamptz, $4::uuid))
                      ORDER BY t.created_at DESC, t.id DESC
                      LIMIT $2 + 1) x) AS holds`,
    accountId,
    limit,
    after?.[0] ?? null,
    after?.[1] ?? null,
  );
  if (!row?.found) throw accountNotFound();
  const { holds } = row;
  const last = holds.length > limit ? holds[limit - 1]! : null;
  return {
    items: holds.slice(0, limit),
    next_cursor: last && holdsCursor.encode(scope, [last.created_at, last.id]),
  };
}
