import type { Database } from "@app/db";
import { apiErrorOf, apiIssuesOf, DomainError, invalidRequestError } from "@app/rest";
import type { z } from "zod";
import type { BatchItem, BatchResult } from "../schemas.ts";
import { firstOfEachKey, type NewTransaction } from "./insert-transactions.ts";
import { untilWithinBounds } from "./balance-bounds.ts";
import { checkPosts, isRefused, postChecked, writeCheckedPosts, type PostOutcome } from "./post-checked.ts";
import { newTransactionOf } from "./transactions.ts";

export interface BatchAnswer {
  /** One per item, in request order. */
  results: BatchResult[];
  /** An atomic batch with a refused item: nothing was written. */
  rejected: boolean;
}

interface Item {
  index: number;
  tx: NewTransaction;
}

/**
 * Posts a batch of transactions (POST /transactions/batch). Each item has
 * exactly the rules and answers of POST /transactions, as if the items were
 * posted one after another: a key repeated in the batch is one transaction,
 * the later items its replays (or, when the first was refused, the next one is
 * tried). The new items of a round are written by one statement.
 *
 * Atomic: every new item is written by that one statement, or, when any item
 * is refused, none is (`rejected`); the items that would have been written
 * answer 422 BATCH_REJECTED.
 */
export async function postTransactionBatch(
  db: Database,
  items: BatchItem[],
  atomic: boolean,
  principal: string,
): Promise<BatchAnswer> {
  const results: BatchResult[] = new Array(items.length);
  const valid: Item[] = [];
  items.forEach((item, index) => {
    if ("invalid" in item) results[index] = invalidItemResult(item.invalid);
    else valid.push({ index, tx: newTransactionOf(item.input, principal) });
  });

  const rejected = atomic ? await postAtomically(db, valid, results) : await postEach(db, valid, results);
  return { results, rejected };
}

/**
 * Not atomic: rounds of one statement each. A repeat of a written key is its
 * replay. One of a refused key is tried next, in its place: a round writes
 * only the items before it, and the next round starts with it.
 */
async function postEach(db: Database, valid: Item[], results: BatchResult[]): Promise<false> {
  let pending = valid;
  while (pending.length > 0) {
    const { firsts, later } = splitByKey(pending);
    const outcomes = await postChecked(
      db,
      firsts.map((item) => item.tx),
      (checked) => {
        const retry = firstRetryIndex(later, firsts, checked);
        return firsts.filter((item) => item.index < retry).length;
      },
    );
    const decided = firsts.filter((item) => outcomes.has(item.tx));
    const byKey = answerFirsts(decided, (item) => outcomes.get(item.tx)!, results);
    answerLater(later, byKey, results, null);
    pending = pending.filter((item) => results[item.index] === undefined);
  }
  return false;
}

/** The index of the first later item whose key's first item is refused (none: Infinity). */
function firstRetryIndex(
  later: Item[],
  firsts: Item[],
  checked: Map<NewTransaction, PostOutcome | null>,
): number {
  const refusedKeys = new Set(
    firsts.filter((item) => isRefused(checked.get(item.tx))).map((item) => item.tx.idempotencyKey),
  );
  return later.find((item) => refusedKeys.has(item.tx.idempotencyKey))?.index ?? Infinity;
}

/**
 * Atomic: the new items written by one statement, or none when any item is
 * refused (true). Checked again when others took a bounded account's room
 * between the check and the commit (untilWithinBounds).
 */
function postAtomically(db: Database, valid: Item[], results: BatchResult[]): Promise<boolean> {
  return untilWithinBounds(() => writeAllOrNone(db, valid, results));
}

/** One round of postAtomically: `results` is only filled once the write went through (or none was made). */
async function writeAllOrNone(db: Database, valid: Item[], results: BatchResult[]): Promise<boolean> {
  const { firsts, later } = splitByKey(valid);
  const checked = await checkPosts(
    db,
    firsts.map((item) => item.tx),
  );
  const refused = [
    ...results.flatMap((result, index) => (result ? [index] : [])),
    ...firsts.filter((item) => isRefused(checked.get(item.tx))).map((item) => item.index),
  ].sort((a, b) => a - b);
  const written =
    refused.length > 0
      ? new Map<NewTransaction, PostOutcome>()
      : await writeCheckedPosts(
          db,
          firsts.filter((item) => checked.get(item.tx) === null).map((item) => item.tx),
        );
  const notWritten = batchRejectedResult(refused);
  const byKey = answerFirsts(
    firsts,
    (item) => checked.get(item.tx) ?? written.get(item.tx),
    results,
    notWritten,
  );
  answerLater(later, byKey, results, notWritten);
  return refused.length > 0;
}

/** Each first item's result, from its outcome (none: `notWritten`); the outcomes by key. */
function answerFirsts(
  firsts: Item[],
  outcomeOf: (item: Item) => PostOutcome | undefined,
  results: BatchResult[],
  notWritten?: BatchResult,
): Map<string, PostOutcome | undefined> {
  const byKey = new Map<string, PostOutcome | undefined>();
  for (const item of firsts) {
    const outcome = outcomeOf(item);
    byKey.set(item.tx.idempotencyKey, outcome);
    results[item.index] = outcome ? resultOf(outcome, item.tx) : notWritten!;
  }
  return byKey;
}

/**
 * A later item of a written or replayed key is a replay of that transaction.
 * One of a refused or unwritten key gets `otherwise` (null: left for the next round).
 */
function answerLater(
  later: Item[],
  byKey: Map<string, PostOutcome | undefined>,
  results: BatchResult[],
  otherwise: BatchResult | null,
): void {
  for (const item of later) {
    const first = byKey.get(item.tx.idempotencyKey);
    if (first && !isRefused(first)) results[item.index] = resultOf({ ...first, status: 200 }, item.tx);
    else if (otherwise) results[item.index] = otherwise;
  }
}

/** The first item of each key, and the items repeating a key seen before them. */
function splitByKey(items: Item[]): { firsts: Item[]; later: Item[] } {
  const firstTxs = new Set(firstOfEachKey(items.map((item) => item.tx)));
  return {
    firsts: items.filter((item) => firstTxs.has(item.tx)),
    later: items.filter((item) => !firstTxs.has(item.tx)),
  };
}

function resultOf(outcome: PostOutcome, tx: NewTransaction): BatchResult {
  if (isRefused(outcome)) {
    // A batch item is a post, never the post of a hold: its refusals are 422s.
    return itemErrorResult(outcome.error);
  }
  const mismatch = outcome.status === 200 && outcome.originalHash !== tx.requestHash;
  return {
    status: outcome.status,
    transaction: outcome.transaction,
    ...(mismatch ? { idempotency_key_mismatch: true as const } : {}),
  };
}

/** An item's refusal as a single post's would be answered (the one error map), without its statusCode. */
function itemErrorResult(refusal: DomainError): BatchResult {
  const { statusCode, ...error } = apiErrorOf(refusal).body;
  return { status: statusCode as 400 | 422, error };
}

function invalidItemResult(error: { issues: readonly z.core.$ZodIssue[] }): BatchResult {
  return itemErrorResult(invalidRequestError(apiIssuesOf(error)));
}

function batchRejectedResult(refusedItems: number[]): BatchResult {
  return itemErrorResult(
    new DomainError(
      422,
      `not written: this atomic batch has refused items (${refusedItems.join(", ")}, counted from 0)`,
      { error: "BATCH_REJECTED" },
    ),
  );
}
