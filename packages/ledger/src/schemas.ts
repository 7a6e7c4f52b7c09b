import { synchronouslyParsed } from "@app/rest";
import { calendarDate, recordWithoutProtoKey, text } from "@app/rest/fields";
import { z } from "zod";
import { CURRENCIES } from "./currencies.ts";
import { cursorInput, nextCursorOutput } from "./list-cursor.ts";

const ACCOUNT_TYPES = ["asset", "liability", "income", "expense"] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

const KNOWN_CURRENCIES = new Set(CURRENCIES);

export const LIMITS = {
  nameLength: 200,
  descriptionLength: 1_000,
  idempotencyKeyLength: 255,
  entriesPerTransaction: 100,
  bodyBytes: 64 * 1024,
  transactionsPerBatch: 1_000,
  batchBodyBytes: 4 * 1024 * 1024,
  pageSize: { min: 1, max: 200, default: 50 },
  accountsPageSize: { min: 1, max: 1_000, default: 100 },
  eventsPageSize: { min: 1, max: 1_000, default: 100 },
  eventsWaitSeconds: 30,
  metadataKeys: 50,
  metadataKeyLength: 40,
  metadataValueLength: 500,
  metadataFilters: 5,
  holdSeconds: 30 * 24 * 60 * 60,
} as const;

const uuid = () => z.uuid("must be a uuid");

const currencyCode = z
  .string()
  // A code not upper-case is one issue, not also an unknown code.
  .regex(/^[A-Z]{3}$/, { message: "must be an upper-case ISO 4217 code", abort: true })
  .refine(
    (code) => KNOWN_CURRENCIES.has(code),
    "is not a currency this ledger takes (an ISO 4217 currency; the OpenAPI document lists them)",
  )
  // For clients to see: the same list on every instance (currencies.ts).
  .meta({ enum: CURRENCIES });

/** Integer minor units (cents, yen), never zero, within ±(2^53-1). Positive debits, negative credits. */
export const amount = z
  .int("must be a whole number of minor units within ±(2^53-1)")
  .refine((value) => value !== 0, "must not be zero");

// ---------------------------------------------------------------- inputs

const METADATA_KEY = /^[A-Za-z0-9_.:-]{1,40}$/;
const metadataKey = z
  .string()
  .regex(METADATA_KEY, `must be 1-${LIMITS.metadataKeyLength} characters of A-Za-z0-9_.:-`);
const metadataValue = text().max(
  LIMITS.metadataValueLength,
  `must be at most ${LIMITS.metadataValueLength} characters`,
);

/** Metadata as callers send it: string values under short keys. */
const metadataInput = recordWithoutProtoKey(
  z
    .record(metadataKey, metadataValue)
    .refine(
      (metadata) => Object.keys(metadata).length <= LIMITS.metadataKeys,
      `at most ${LIMITS.metadataKeys} keys`,
    ),
  "__proto__ is not a metadata key",
).meta({
  description:
    `String values to find this again by (GET with \`metadata[KEY]=VALUE\`): at most ${LIMITS.metadataKeys} keys of ` +
    `1-${LIMITS.metadataKeyLength} characters (A-Za-z0-9_.:-), values up to ${LIMITS.metadataValueLength} characters.`,
  example: { order_id: "ord_1042", customer: "cus_77" },
});

/** `metadata[KEY]=VALUE` query parameters (a deepObject, which the REST edge reads into one object): each must match. */
const metadataFilter = recordWithoutProtoKey(
  z
    .record(metadataKey, metadataValue)
    .refine(
      (filter) => Object.keys(filter).length <= LIMITS.metadataFilters,
      `at most ${LIMITS.metadataFilters} metadata filters`,
    ),
  "__proto__ is not a metadata key",
)
  .optional()
  .meta({
    description: `\`metadata[KEY]=VALUE\`: only those whose metadata has KEY equal to VALUE; up to ${LIMITS.metadataFilters}, all must match.`,
  });

const accountName = text().trim().min(1, "must not be empty").max(LIMITS.nameLength);

/** A bound of an account's balance (its plain sum): minor units within ±(2^53-1), or null for none. */
const balanceBound = (description: string) =>
  z.int("must be a whole number of minor units within ±(2^53-1)").nullable().optional().meta({ description });

const MIN_BALANCE =
  "The lowest the balance (the plain sum) may be taken by a post that lowers it; null or absent: no bound. " +
  "An asset that may not go negative has 0.";
const MAX_BALANCE =
  "The highest the balance may be taken by a post that raises it; null or absent: no bound. " +
  "A wallet (liability, credit-normal) that may not be overdrawn has 0; with a 50.00 overdraft, 5000.";

export const createAccountInput = z
  .strictObject({
    name: accountName,
    type: z.enum(ACCOUNT_TYPES),
    currency: currencyCode,
    min_balance: balanceBound(`${MIN_BALANCE} At most 0: a new account's balance is 0.`),
    max_balance: balanceBound(`${MAX_BALANCE} At least 0: a new account's balance is 0.`),
    metadata: metadataInput.optional(),
  })
  .superRefine(({ min_balance, max_balance }, ctx) => {
    if (min_balance != null && min_balance > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["min_balance"],
        message: "must be at most 0: a new account's balance is 0",
      });
    }
    if (max_balance != null && max_balance < 0) {
      ctx.addIssue({
        code: "custom",
        path: ["max_balance"],
        message: "must be at least 0: a new account's balance is 0",
      });
    }
  });

export const patchAccountInput = z
  .strictObject({
    id: uuid(),
    name: accountName.optional(),
    min_balance: balanceBound(
      `${MIN_BALANCE} Applies to later posts; a balance already below it is allowed.`,
    ),
    max_balance: balanceBound(
      `${MAX_BALANCE} Applies to later posts; a balance already above it is allowed.`,
    ),
    metadata: metadataInput
      .optional()
      .meta({ description: "Replaces the account's metadata ({} clears it)." }),
  })
  .superRefine(({ id: _id, ...change }, ctx) => {
    const { min_balance, max_balance } = change;
    if (Object.values(change).every((value) => value === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: "nothing to change: send name, min_balance, max_balance or metadata",
      });
    }
    if (min_balance != null && max_balance != null && min_balance > max_balance) {
      ctx.addIssue({ code: "custom", path: ["min_balance"], message: "must be at most max_balance" });
    }
  });

const entryInput = z.strictObject({ account_id: uuid(), amount });

const description = text()
  .trim()
  .max(LIMITS.descriptionLength)
  .nullish()
  .transform((v) => (v ? v : null));

const idempotencyKey = text()
  .min(1, "must not be empty")
  .max(LIMITS.idempotencyKeyLength, `must be at most ${LIMITS.idempotencyKeyLength} characters`);

const MOST_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A transaction moves each account by the sum of its entries there; past
 * ±(2^53-1) that move has no exact JSON number, so it is refused like an
 * amount past that range (two entries of 2^53-1 on one account, say).
 */
function refuseAccountMovesOutOfRange(
  entries: { account_id: string; amount: number }[],
  ctx: z.RefinementCtx,
) {
  const moves = new Map<string, bigint>();
  for (const { account_id, amount } of entries) {
    if (!Number.isSafeInteger(amount)) continue; // already an issue of its own
    const id = account_id.toLowerCase();
    moves.set(id, (moves.get(id) ?? 0n) + BigInt(amount));
  }
  for (const [id, move] of moves) {
    if (move > MOST_EXACT || move < -MOST_EXACT) {
      ctx.addIssue({
        code: "custom",
        message: `the entries of account ${id} sum to ${move}, beyond ±(2^53-1)`,
      });
    }
  }
}

const entriesInput = z
  .array(entryInput)
  .min(2, "a transaction needs at least 2 entries")
  .max(LIMITS.entriesPerTransaction, `at most ${LIMITS.entriesPerTransaction} entries`)
  .superRefine(refuseAccountMovesOutOfRange);

const holdInput = z
  .strictObject({
    expires_in_seconds: z
      .int("must be a whole number of seconds")
      .min(1, "must be at least 1 second")
      .max(LIMITS.holdSeconds, `must be at most ${LIMITS.holdSeconds} (30 days)`),
  })
  .meta({
    description:
      "Makes this a hold: its amounts are reserved (counted toward bounds, in no balance) until it is posted, " +
      "voided or expires this many seconds from now.",
  });

const transactionMetadata = metadataInput
  .optional()
  .meta({ description: "Fixed with the transaction; part of what a replay of its key compares." });

export const postTransactionInput = z.strictObject({
  idempotency_key: idempotencyKey,
  description,
  effective_date: calendarDate().optional().meta({ description: "Defaults to today (UTC)." }),
  entries: entriesInput,
  hold: holdInput.optional(),
  metadata: transactionMetadata,
});

/**
 * A batch item is checked on its own: one that fails validation is that
 * item's 400 in the results, not the batch's (zod's `catch` keeps the
 * failure; the OpenAPI document shows the item's schema).
 */
const batchItemInput = postTransactionInput
  .transform((input): BatchItem => ({ input }))
  .catch(({ error }): BatchItem => ({ invalid: error }));

export const postTransactionBatchInput = z.strictObject({
  transactions: z
    .array(batchItemInput)
    .min(1, "a batch needs at least 1 transaction")
    .max(LIMITS.transactionsPerBatch, `at most ${LIMITS.transactionsPerBatch} transactions`),
  atomic: z
    .boolean()
    .default(false)
    .meta({ description: "All new transactions written together or none (422 BATCH_REJECTED)." }),
});

export const reverseTransactionInput = z.strictObject({
  id: uuid(),
  idempotency_key: idempotencyKey,
  description,
  effective_date: calendarDate().optional().meta({ description: "Defaults to today (UTC)." }),
  metadata: transactionMetadata,
});

export const postHoldInput = z.strictObject({
  id: uuid(),
  idempotency_key: idempotencyKey,
  description,
  effective_date: calendarDate().optional().meta({ description: "Defaults to today (UTC)." }),
  entries: entriesInput.optional().meta({
    description:
      "A partial capture: each account in the hold, with its sign and at most its amount there, summing to zero " +
      "per currency; the rest is released. Absent: the hold's amounts in full.",
  }),
  metadata: transactionMetadata,
});

export const voidHoldInput = z.strictObject({ id: uuid(), idempotency_key: idempotencyKey });

export const idInput = z.strictObject({ id: uuid() });

export const asOfInput = z.strictObject({
  as_of: calendarDate().optional().meta({ description: "End of day, inclusive. Defaults to today (UTC)." }),
});

const pageLimit = (
  { min, max, default: byDefault }: { min: number; max: number; default: number } = LIMITS.pageSize,
) => z.number().int().min(min).max(max).default(byDefault);

export const entriesPageInput = z
  .strictObject({
    id: uuid(),
    limit: pageLimit(),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: "Rows to skip (default 0); not with `cursor`." }),
    cursor: cursorInput(),
  })
  .refine(({ offset, cursor }) => offset === undefined || cursor === undefined, {
    path: ["cursor"],
    message: "send either offset or cursor, not both",
  });

export const holdsPageInput = z.strictObject({ id: uuid(), limit: pageLimit(), cursor: cursorInput() });

const TRANSACTION_STATUSES = ["posted", "pending", "voided", "expired"] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const transactionsPageInput = z
  .strictObject({
    limit: pageLimit(),
    cursor: cursorInput(),
    account_id: uuid()
      .optional()
      .meta({ description: "Only transactions with an entry (or a hold's) on this account." }),
    metadata: metadataFilter,
    effective_from: calendarDate()
      .optional()
      .meta({ description: "Only effective_date on or after this day." }),
    effective_to: calendarDate()
      .optional()
      .meta({ description: "Only effective_date on or before this day." }),
    status: z
      .enum(TRANSACTION_STATUSES)
      .optional()
      .meta({ description: "Only transactions with this status now." }),
    reverses_transaction_id: uuid()
      .optional()
      .meta({ description: "Only the reversal of this transaction (at most one)." }),
    hold_id: uuid()
      .optional()
      .meta({ description: "Only the transaction that posted this hold (at most one)." }),
  })
  .refine(
    ({ effective_from, effective_to }) => !effective_from || !effective_to || effective_from <= effective_to,
    { path: ["effective_to"], message: "must not be before effective_from" },
  );
export type TransactionFilters = Omit<z.output<typeof transactionsPageInput>, "limit" | "cursor">;

export const accountsPageInput = z.strictObject({
  limit: pageLimit(LIMITS.accountsPageSize),
  cursor: cursorInput(),
  type: z.enum(ACCOUNT_TYPES).optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "must be an upper-case ISO 4217 code")
    .optional(),
  metadata: metadataFilter,
});
export type AccountFilters = Omit<z.output<typeof accountsPageInput>, "limit" | "cursor">;

export const eventsPageInput = z.strictObject({
  after: z
    .string()
    .max(500)
    .optional()
    .meta({
      description:
        "The `next_cursor` of the page before; absent: from the first change; `end`: no items, and the cursor of the " +
        "current end (to follow only what comes next).",
    }),
  limit: pageLimit(LIMITS.eventsPageSize),
  wait_seconds: z.number().int().min(0).max(LIMITS.eventsWaitSeconds).default(0).meta({
    description: "With nothing new, wait up to this long for a change before answering `items: []`.",
  }),
});

export type PostTransactionInput = z.output<typeof postTransactionInput>;
export type PostHoldInput = z.output<typeof postHoldInput>;
/** A batch item: valid, or why not. */
export type BatchItem =
  { input: PostTransactionInput } | { invalid: { issues: readonly z.core.$ZodIssue[] } };

// ---------------------------------------------------------------- outputs

export const accountOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    type: z.enum(ACCOUNT_TYPES),
    currency: z.string(),
    normal_balance: z.enum(["debit", "credit"]),
    min_balance: z.number().int().nullable(),
    max_balance: z.number().int().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: z.iso.datetime(),
    updated_at: z.iso
      .datetime()
      .meta({ description: "When its name, bounds or metadata last changed (PATCH)." }),
  })
  .meta({ id: "Account" });

const entryOutput = z
  .object({
    id: z.uuid(),
    transaction_id: z.uuid(),
    account_id: z.uuid(),
    currency: z.string(),
    amount: z.number().int(),
    effective_date: z.iso.date(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Entry" });

export const transactionOutput = z
  .object({
    id: z.uuid(),
    idempotency_key: z.string(),
    description: z.string().nullable(),
    effective_date: z.iso.date(),
    reverses_transaction_id: z.uuid().nullable(),
    status: z.enum(["posted", "pending", "voided", "expired"]).meta({
      description:
        "`posted` for every transaction that moved balances; a hold is `pending` until it is posted (`posted`), " +
        "voided (`voided`) or reaches `expires_at` (`expired`).",
    }),
    hold_id: z.uuid().nullable().meta({ description: "The hold this transaction posts; null for others." }),
    expires_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: "When a hold stops counting; null for others." }),
    metadata: z.record(z.string(), z.string()),
    created_at: z.iso.datetime(),
    entries: z.array(entryOutput).meta({
      description: "A hold's entries are what it reserves: in no balance and no account's entries list.",
    }),
  })
  .meta({ id: "Transaction" });

// Pages are validated with zod's synchronous parse (synchronouslyParsed says why).
export const holdsPageOutput = synchronouslyParsed(
  z.object({ items: z.array(transactionOutput), next_cursor: nextCursorOutput() }).meta({ id: "HoldPage" }),
);

export const transactionsPageOutput = synchronouslyParsed(
  z
    .object({ items: z.array(transactionOutput), next_cursor: nextCursorOutput() })
    .meta({ id: "TransactionPage" }),
);

export const accountsPageOutput = synchronouslyParsed(
  z.object({ items: z.array(accountOutput), next_cursor: nextCursorOutput() }).meta({ id: "AccountPage" }),
);

export const entriesPageOutput = synchronouslyParsed(
  z
    .object({
      items: z.array(entryOutput),
      limit: z.number().int(),
      offset: z.number().int().meta({ description: "The offset sent; 0 for a page by cursor." }),
      next_cursor: nextCursorOutput(),
    })
    .meta({ id: "EntryPage" }),
);

const eventId = z.string().meta({ description: "Unique and never reused (digits)." });

/**
 * An event, told apart by its `type`: zod checks its `data` against the one
 * schema that type has (a plain union tried the account's first on every
 * transaction, a cost every event of a page paid).
 */
export const eventOutput = z
  .discriminatedUnion("type", [
    z.object({
      id: eventId,
      type: z.enum(["account.created", "account.updated"]),
      created_at: z.iso.datetime(),
      data: accountOutput.meta({ description: "The account as the change left it." }),
    }),
    z.object({
      id: eventId,
      type: z.enum(["transaction.posted", "hold.created", "hold.voided", "hold.expired"]),
      created_at: z.iso.datetime(),
      data: transactionOutput.meta({
        description: "The transaction (for hold.*, the hold) as GET /transactions/{id} answers it now.",
      }),
    }),
  ])
  .meta({ id: "Event" });

export const eventsPageOutput = synchronouslyParsed(
  z
    .object({
      items: z.array(eventOutput),
      next_cursor: z
        .string()
        .meta({ description: "Where to continue from: send it as `after`. Never null." }),
    })
    .meta({ id: "EventPage" }),
);

/** A balance as a JSON number when one holds it exactly, and always as exact digits. */
const exactBalance = {
  balance: z.number().int().nullable().meta({
    description: "The sum of the entries; null when it is beyond ±(2^53-1), where no JSON number is exact.",
  }),
  balance_exact: z
    .string()
    .regex(/^-?[0-9]+$/)
    .meta({ description: "The same sum as exact decimal digits, whatever its size.", example: "-1250" }),
};

export const balanceOutput = z
  .object({
    account_id: z.uuid(),
    as_of: z.iso.date(),
    currency: z.string(),
    ...exactBalance,
    pending_debits: z
      .number()
      .int()
      .nullable()
      .meta({
        description:
          "What the account's open holds may still add (the positive of each one's amount there), now; >= 0. " +
          "Null beyond 2^53-1.",
      }),
    pending_credits: z.number().int().nullable().meta({
      description: "What its open holds may still take (the negative of each one's amount there), now; <= 0.",
    }),
    room_to_debit: z
      .number()
      .int()
      .nullable()
      .meta({
        description:
          "The largest debit one post may make on this account now without passing max_balance: max_balance less " +
          "the sum of every entry, whatever its effective_date, and pending_debits; >= 0 (at most 2^53-1). Null " +
          "without a max_balance. What a wallet (credit-normal, max_balance 0) may still spend.",
      }),
    room_to_credit: z
      .number()
      .int()
      .nullable()
      .meta({
        description:
          "The largest credit one post may make now without passing min_balance: the sum of every entry and " +
          "pending_credits, less min_balance; >= 0 (at most 2^53-1). Null without a min_balance.",
      }),
  })
  .meta({ id: "AccountBalance" });

export const balancesOutput = synchronouslyParsed(
  z
    .object({
      as_of: z.iso.date(),
      accounts: z.array(z.object({ id: z.uuid(), name: z.string(), currency: z.string(), ...exactBalance })),
    })
    .meta({ id: "Balances" }),
);

const batchItemError = z.object({
  error: z.string().meta({
    description:
      "BAD_REQUEST, UNBALANCED_TRANSACTION, UNKNOWN_ACCOUNT, BALANCE_LIMIT_EXCEEDED or BATCH_REJECTED.",
  }),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const batchResultOutput = z
  .union([
    z.object({
      status: z.union([z.literal(201), z.literal(200)]).meta({
        description: "201 written; 200 the key was known: its original transaction (a replay).",
      }),
      transaction: transactionOutput,
      idempotency_key_mismatch: z
        .literal(true)
        .optional()
        .meta({ description: "A replay whose request differs from the original's." }),
    }),
    z.object({
      status: z.union([z.literal(400), z.literal(422)]),
      error: batchItemError,
    }),
  ])
  .meta({ id: "BatchResult" });

export const batchOutput = z
  .object({
    results: z.array(batchResultOutput).meta({ description: "One per transaction, in request order." }),
  })
  .meta({ id: "BatchResults" });

export type Account = z.output<typeof accountOutput>;
export type Transaction = z.output<typeof transactionOutput>;
export type Entry = z.output<typeof entryOutput>;
export type LedgerEvent = z.output<typeof eventOutput>;
export type BatchResult = z.output<typeof batchResultOutput>;
