import {
  accountOutput,
  accountsPageInput,
  accountsPageOutput,
  asOfInput,
  balanceOutput,
  balancesOutput,
  batchOutput,
  createAccountInput,
  entriesPageInput,
  entriesPageOutput,
  eventsPageInput,
  eventsPageOutput,
  holdsPageInput,
  holdsPageOutput,
  idInput,
  LIMITS,
  patchAccountInput,
  postHoldInput,
  postTransactionBatchInput,
  postTransactionInput,
  reverseTransactionInput,
  transactionOutput,
  transactionsPageInput,
  transactionsPageOutput,
  voidHoldInput,
} from "../schemas.ts";
import { waitForEvents } from "../store/events.ts";
import { searchTransactions } from "../store/search-transactions.ts";
import {
  createAccount,
  createAccountOnce,
  getAccount,
  listAccounts,
  patchAccount,
} from "../store/accounts.ts";
import {
  ALL_BALANCES_TIMEOUT_MS,
  getAllBalances,
  getBalance,
  listAccountEntries,
} from "../store/balances.ts";
import {
  getTransaction,
  postTransaction,
  reverseTransaction,
  type PostResult,
} from "../store/transactions.ts";
import { postTransactionBatch } from "../store/post-batch.ts";
import { listOpenHolds, postHold, voidHold } from "../store/holds.ts";
import { todayUtc } from "../today-utc.ts";
import {
  DomainError,
  ETAG_HEADER,
  idempotencyKeyHeader,
  idempotencyKeyOf,
  REPLAYED_HEADER,
  retrySafeDescription,
  versionCheckOf,
} from "@app/rest";
import { router, ledgerProcedure, type LedgerContext } from "../trpc.ts";

const accountNotFound = { 404: "No account with this id." };
const transactionNotFound = { 404: "No transaction with this id." };
const postingErrors = {
  422:
    "UNBALANCED_TRANSACTION (entries do not sum to zero per currency), UNKNOWN_ACCOUNT (named in the message) or " +
    "BALANCE_LIMIT_EXCEEDED (each account, its bound and the sum it would reach in `issues`); the key stays unused.",
};
const notACursor = { 400: "A cursor of another list, or not one this server made." };
const holdConflicts = {
  409: "NOT_A_HOLD, HOLD_VOIDED, HOLD_ALREADY_POSTED or HOLD_EXPIRED: the hold is resolved once, before its expires_at.",
};

function warnOfReusedKey(ctx: LedgerContext, key: string) {
  ctx.warn(
    `idempotency key ${JSON.stringify(key)} reused by ${ctx.caller.principal} with a different request`,
  );
}

/** 201 (the route's status) for a new transaction; 200 with Idempotent-Replayed for a known key (and a mismatch flag). */
function answerPost(ctx: LedgerContext, result: PostResult, key: string) {
  if (result.replayed) ctx.response.status = 200;
  else ctx.response.headers.set("Location", `/transactions/${result.transaction.id}`);
  return answerReplay(ctx, result, key);
}

/** The transaction, with Idempotent-Replayed for a known key (and Idempotency-Key-Mismatch, logged, for another body). */
function answerReplay(ctx: LedgerContext, result: PostResult, key: string) {
  if (result.replayed) {
    ctx.response.headers.set("Idempotent-Replayed", "true");
    if (result.mismatch) {
      ctx.response.headers.set("Idempotency-Key-Mismatch", "true");
      warnOfReusedKey(ctx, key);
    }
  }
  return result.transaction;
}

/** The 422 of an atomic batch: the error body with every item's result. */
const BATCH_REJECTED_BODY = {
  type: "object",
  required: ["statusCode", "error", "message", "results"],
  additionalProperties: false,
  properties: {
    statusCode: { type: "integer", const: 422 },
    error: { type: "string", const: "BATCH_REJECTED" },
    message: { type: "string" },
    results: {
      type: "array",
      description:
        "One per item, in order: the refused ones with their error, the others 422 BATCH_REJECTED (not written) or 200 (a known key's original).",
      items: { $ref: "#/components/schemas/BatchResult" },
    },
  },
};

const replayDocs = {
  successStatus: 201,
  otherSuccess: {
    200: "The key was known: the original transaction, unchanged (Idempotent-Replayed: true).",
  },
  successHeaders: {
    Location: "The new transaction's URL (201).",
    "Idempotent-Replayed": "true on a replay (200).",
    "Idempotency-Key-Mismatch": "true when a replay's request differs from the original's.",
  },
};

export const ledgerRouter = router({
  createAccount: ledgerProcedure
    .meta({
      action: "ledger:CreateAccount",
      openapi: {
        method: "POST",
        path: "/accounts",
        tags: ["accounts"],
        summary: "Create an account",
        description:
          "An account in one currency (ISO 4217); `normal_balance` follows from its type (debit for asset and expense). " +
          retrySafeDescription("making a second account"),
        requestHeaders: idempotencyKeyHeader(
          "scoped to the signing principal and kept as long as the ledger",
        ),
      },
      rest: {
        successStatus: 201,
        successHeaders: {
          Location: "The new account's URL.",
          ...REPLAYED_HEADER,
        },
        errors: { 422: "IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with another body." },
      },
    })
    .input(createAccountInput)
    .output(accountOutput)
    .mutation(async ({ ctx, input }) => {
      const key = idempotencyKeyOf(ctx.idempotencyKey);
      const { account, replayed } = key
        ? await createAccountOnce(ctx.db, input, ctx.caller.principal, key)
        : { account: await createAccount(ctx.db, input), replayed: false };
      ctx.response.headers.set("Location", `/accounts/${account.id}`);
      if (replayed) ctx.response.headers.set("Idempotent-Replayed", "true");
      return account;
    }),

  listAccounts: ledgerProcedure
    .meta({
      action: "ledger:Read",
      openapi: {
        method: "GET",
        path: "/accounts",
        tags: ["accounts"],
        summary: "A page of accounts, in creation order",
        description:
          "Oldest first, those matching every filter given (`type`, `currency`, `metadata[KEY]=VALUE`); `limit` 1-1000 " +
          "(100), `cursor` the `next_cursor` of the page before.",
      },
      rest: { errors: notACursor },
    })
    .input(accountsPageInput)
    .output(accountsPageOutput)
    .query(({ ctx, input: { limit, cursor, ...filters } }) => listAccounts(ctx.db, filters, limit, cursor)),

  getAccount: ledgerProcedure
    .meta({
      action: "ledger:Read",
      openapi: {
        method: "GET",
        path: "/accounts/{id}",
        tags: ["accounts"],
        summary: "Get an account",
        description: "One account by its id, with its ETag (its `updated_at`, for PATCH's If-Match).",
      },
      rest: { successHeaders: ETAG_HEADER, errors: accountNotFound },
    })
    .input(idInput)
    .output(accountOutput)
    .query(({ ctx, input }) => getAccount(ctx.db, input.id)),

  patchAccount: ledgerProcedure
    .meta({
      action: "ledger:CreateAccount",
      openapi: {
        method: "PATCH",
        path: "/accounts/{id}",
        tags: ["accounts"],
        summary: "Rename an account, change its balance bounds or replace its metadata",
        description:
          "Changes the fields sent (`name`, `min_balance`, `max_balance`, null removing a bound; `metadata`, replaced " +
          "whole) and answers the " +
          "account with `updated_at`. New bounds apply to later posts: a balance that already breaks one is allowed, " +
          "and only posts that move it further beyond are refused. With If-Match (the ETag a read gave, or " +
          "`updated_at` in quotes), it writes only over that version: a change made meanwhile, or a copy of an " +
          "older request sent again, is a 412 and changes nothing.",
      },
      rest: { errors: accountNotFound, conditional: true },
    })
    .input(patchAccountInput)
    .output(accountOutput)
    .mutation(({ ctx, input: { id, ...change } }) =>
      patchAccount(ctx.db, id, change, versionCheckOf(ctx.preconditions) ?? undefined),
    ),

  listEntries: ledgerProcedure
    .meta({
      action: "ledger:Read",
      openapi: {
        method: "GET",
        path: "/accounts/{id}/entries",
        tags: ["accounts"],
        summary: "A page of an account's entries, most recent first",
        description:
          "Ordered by effective_date, then created_at and id, descending; `limit` 1-200 (50), then either `offset` " +
          "(from 0) or `cursor` (the `next_cursor` of the page before: as fast at any depth, and stable while others " +
          "post). Both together are a 400.",
      },
      rest: { errors: { ...accountNotFound, ...notACursor } },
    })
    .input(entriesPageInput)
    .output(entriesPageOutput)
    .query(({ ctx, input: { id, limit, offset, cursor } }) =>
      listAccountEntries(ctx.db, id, limit, cursor === undefined ? { offset: offset ?? 0 } : { cursor }),
    ),

  getBalance: ledgerProcedure
    .meta({
      action: "ledger:Read",
      openapi: {
        method: "GET",
        path: "/accounts/{id}/balance",
        tags: ["balances"],
        summary: "An account's balance: the sum of its entries up to as_of",
        description:
          "Entries with effective_date on or before `as_of` (default today, UTC), summed on every request. " +
          "`balance` is null past ±(2^53-1); `balance_exact` is always the exact sum.",
      },
      rest: { errors: accountNotFound },
    })
    .input(idInput.extend(asOfInput.shape))
    .output(balanceOutput)
    .query(({ ctx, input }) => getBalance(ctx.db, input.id, input.as_of ?? todayUtc())),

  getBalances: ledgerProcedure
    .meta({
      action: "ledger:Read",
      openapi: {
        method: "GET",
        path: "/balances",
        tags: ["balances"],
        summary: "Every account's balance up to as_of, zero balances included, in creation order",
        description:
          `Sums every entry: its statement may run up to ${ALL_BALANCES_TIMEOUT_MS / 1000} s over a large ledger (other routes: DB_STATEMENT_TIMEOUT_MS). ` +
          "An account past ±(2^53-1) answers `balance: null` and its exact `balance_exact`, as every account does.",
      },
    })
    .input(asOfInput)
    .output(balancesOutput)
    .query(({ ctx, input }) => getAllBalances(ctx.db, input.as_of ?? todayUtc())),

  postTransaction: ledgerProcedure
    .meta({
      action: "ledger:PostTransaction",
      openapi: {
        method: "POST",
        path: "/transactions",
        tags: ["transactions"],
        summary: "Post a balanced transaction (idempotent by idempotency_key)",
        description:
          "201 for a new transaction. A known idempotency_key answers 200 with the original, byte for byte, and " +
          "Idempotent-Replayed (plus Idempotency-Key-Mismatch when the body differs). With `hold`, a pending " +
          "transaction: its amounts are reserved against the accounts' bounds until it is posted, voided or expires.",
      },
      rest: { ...replayDocs, errors: postingErrors },
    })
    .input(postTransactionInput)
    .output(transactionOutput)
    .mutation(async ({ ctx, input }) =>
      answerPost(ctx, await postTransaction(ctx.db, input, ctx.caller.principal), input.idempotency_key),
    ),

  postTransactionBatch: ledgerProcedure
    .meta({
      action: "ledger:PostTransaction",
      openapi: {
        method: "POST",
        path: "/transactions/batch",
        tags: ["transactions"],
        summary: `Post up to ${LIMITS.transactionsPerBatch.toLocaleString("en")} transactions in one request`,
        description:
          "Each item has the rules and answers of POST /transactions: `results` has one per item, in order, with " +
          "its status (201, 200 replay, 400, 422) and its transaction or error. A key repeated in the batch is one " +
          "transaction, the later items its replays. With `atomic`, the new transactions are written together or, " +
          `when any item is refused, none is (422 BATCH_REJECTED with the results). Body up to ${LIMITS.batchBodyBytes / 2 ** 20} MiB.`,
      },
      rest: {
        errors: { 422: "BATCH_REJECTED: an atomic batch with a refused item; nothing was written." },
        errorBodies: { 422: BATCH_REJECTED_BODY },
        maxBodyBytes: LIMITS.batchBodyBytes,
      },
    })
    .input(postTransactionBatchInput)
    .output(batchOutput)
    .mutation(async ({ ctx, input }) => {
      const { results, rejected } = await postTransactionBatch(
        ctx.db,
        input.transactions,
        input.atomic,
        ctx.caller.principal,
      );
      if (rejected) {
        throw new DomainError(
          422,
          "nothing was written: an item of this atomic batch was refused (see results)",
          {
            error: "BATCH_REJECTED",
            details: { results },
          },
        );
      }
      results.forEach((result, i) => {
        if ("idempotency_key_mismatch" in result) {
          const item = input.transactions[i]!;
          if ("input" in item) warnOfReusedKey(ctx, item.input.idempotency_key);
        }
      });
      return { results };
    }),

  searchTransactions: ledgerProcedure
    .meta({
      action: "ledger:Read",
      openapi: {
        method: "GET",
        path: "/transactions",
        tags: ["transactions"],
        summary: "Search transactions, newest first",
        description:
          "Newest first (created_at, then id), those matching every filter given: `account_id` (an entry, or a " +
          "hold's, on it), `metadata[KEY]=VALUE` (exact, up to 5), `effective_from` / `effective_to` (inclusive), " +
          "`status` (now), `reverses_transaction_id` (its reversal), `hold_id` (the hold's post). `limit` 1-200 (50), " +
          "`cursor` the `next_cursor` of the page before.",
      },
      rest: { errors: notACursor },
    })
    .input(transactionsPageInput)
    .output(transactionsPageOutput)
    .query(({ ctx, input: { limit, cursor, ...filters } }) =>
      searchTransactions(ctx.db, filters, limit, cursor),
    ),

  getTransaction: ledgerProcedure
    .meta({
      action: "ledger:Read",
      openapi: {
        method: "GET",
        path: "/transactions/{id}",
        tags: ["transactions"],
        summary: "Get a transaction",
        description: "One transaction with its entries in posted order.",
      },
      rest: { errors: transactionNotFound },
    })
    .input(idInput)
    .output(transactionOutput)
    .query(({ ctx, input }) => getTransaction(ctx.db, input.id)),

  reverseTransaction: ledgerProcedure
    .meta({
      action: "ledger:PostTransaction",
      openapi: {
        method: "POST",
        path: "/transactions/{id}/reversal",
        tags: ["transactions"],
        summary: "Reverse a transaction: a new one with every amount negated",
        description:
          "Posts the reversal, idempotent by its own idempotency_key; a transaction is reversed at most once (409 after).",
      },
      rest: {
        ...replayDocs,
        errors: {
          ...transactionNotFound,
          409: "The transaction has already been reversed, or is a hold (HOLD_NOT_REVERSIBLE).",
          ...postingErrors,
        },
      },
    })
    .input(reverseTransactionInput)
    .output(transactionOutput)
    .mutation(async ({ ctx, input }) =>
      answerPost(ctx, await reverseTransaction(ctx.db, input, ctx.caller.principal), input.idempotency_key),
    ),

  postHold: ledgerProcedure
    .meta({
      action: "ledger:PostTransaction",
      openapi: {
        method: "POST",
        path: "/transactions/{id}/post",
        tags: ["holds"],
        summary: "Post a pending hold, in full or in part",
        description:
          "A new transaction with `hold_id` naming the hold: its amounts in full or, with `entries`, a part (each " +
          "account in the hold, same sign, at most its amount there, summing to zero per currency); the rest is " +
          "released. Idempotent by idempotency_key like any post.",
      },
      rest: {
        ...replayDocs,
        errors: {
          ...transactionNotFound,
          ...holdConflicts,
          422: `INVALID_CAPTURE (an entry outside the hold), or as a post: ${postingErrors[422]}`,
        },
      },
    })
    .input(postHoldInput)
    .output(transactionOutput)
    .mutation(async ({ ctx, input }) =>
      answerPost(ctx, await postHold(ctx.db, input, ctx.caller.principal), input.idempotency_key),
    ),

  voidHold: ledgerProcedure
    .meta({
      action: "ledger:PostTransaction",
      openapi: {
        method: "POST",
        path: "/transactions/{id}/void",
        tags: ["holds"],
        summary: "Void a pending hold",
        description:
          "Ends the hold's reservation; answers the hold, `voided`. A retry with the same idempotency_key answers " +
          "it again (Idempotent-Replayed: true).",
      },
      rest: {
        successHeaders: {
          "Idempotent-Replayed": "true on a replay.",
          "Idempotency-Key-Mismatch": "true when a replay's request differs from the original's.",
        },
        errors: { ...transactionNotFound, ...holdConflicts },
      },
    })
    .input(voidHoldInput)
    .output(transactionOutput)
    .mutation(async ({ ctx, input }) =>
      answerReplay(ctx, await voidHold(ctx.db, input, ctx.caller.principal), input.idempotency_key),
    ),

  listHolds: ledgerProcedure
    .meta({
      action: "ledger:Read",
      openapi: {
        method: "GET",
        path: "/accounts/{id}/holds",
        tags: ["holds"],
        summary: "An account's open holds, newest first",
        description:
          "Holds neither posted, voided nor expired that reserve an amount on the account; `limit` 1-200 (50), " +
          "`cursor` the `next_cursor` of the page before.",
      },
      rest: { errors: { ...accountNotFound, ...notACursor } },
    })
    .input(holdsPageInput)
    .output(holdsPageOutput)
    .query(({ ctx, input }) => listOpenHolds(ctx.db, input.id, input.limit, input.cursor)),

  listEvents: ledgerProcedure
    .meta({
      action: "ledger:Read",
      openapi: {
        method: "GET",
        path: "/events",
        tags: ["events"],
        summary: "The ledger's changes, in the order they became readable",
        description:
          "`account.created`, `account.updated`, `transaction.posted` (reversals and posts of holds included), " +
          "`hold.created`, `hold.voided`, `hold.expired` (about a second after the expiry of a hold left open). " +
          "Follow `next_cursor` (as `after`) from the start and you see every change " +
          "exactly once, never one whose transaction has not committed, and never miss one that commits late. " +
          "`after=end` answers the current end. With `wait_seconds`, an empty page waits for a change (or the end " +
          "of the wait, or the server's shutdown) before it answers.",
      },
      rest: { errors: notACursor },
    })
    .input(eventsPageInput)
    .output(eventsPageOutput)
    .query(({ ctx, input }) =>
      waitForEvents(ctx.db, ctx.changes, input.after, input.limit, input.wait_seconds * 1_000),
    ),
});

export type LedgerRouter = typeof ledgerRouter;
