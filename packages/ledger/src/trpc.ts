/**
 * The ledger's tRPC instance, served as REST only. The SigV4 check runs in
 * front of it (apps/ledger); each procedure names the action it needs.
 */
import { initTRPC } from "@trpc/server";
import { isDatabaseUnavailable, type Database } from "@app/db";
import type { ChangeSignal } from "./store/events.ts";
import {
  DomainError,
  domainErrorsForTrpc,
  formatTrpcError,
  hasPreconditions,
  type PreconditionHeaders,
  type ResponseControl,
  type ServiceMeta,
} from "@app/rest";

// ---------------------------------------------------------------- context

/** What a key may do; each procedure names the one it needs. */
export const LEDGER_ACTIONS = ["ledger:CreateAccount", "ledger:PostTransaction", "ledger:Read"] as const;
export type LedgerAction = (typeof LEDGER_ACTIONS)[number];

export interface LedgerContext {
  db: Database;
  /** The verified signer: who it is and what it may do. */
  caller: { principal: string; accessKeyId: string; actions: readonly string[] };
  /** The request's Idempotency-Key header (POST /accounts), as sent. */
  idempotencyKey: string | null;
  /** Its If-Match, If-None-Match and If-Unmodified-Since, as sent (PATCH /accounts/{id} checks them). */
  preconditions: PreconditionHeaders;
  response: ResponseControl;
  /** Where warnings (a reused idempotency key) go. */
  warn(message: string): void;
  /** What a waiting GET /events wakes on. */
  changes: ChangeSignal;
  /** Tells every instance's waiting GET /events that something may have changed (after a write). */
  announceChange(): void;
}

// Optional only for trpc-to-openapi's types; a procedure without one is refused.
export type LedgerMeta = ServiceMeta & { action?: LedgerAction };

// ---------------------------------------------------------------- instance

const t = initTRPC.context<LedgerContext>().meta<LedgerMeta>().create({ errorFormatter: formatTrpcError });

export const router = t.router;

// ---------------------------------------------------------------- procedures

/**
 * 403 AccessDenied (AWS's name for it) unless the caller's key holds the
 * procedure's action. The REST edge asks it before reading the body
 * (RestCall.authorize), so a key without the right is told so whatever it
 * sent; every procedure asks it again.
 */
export function refuseUnlessAllowed(caller: LedgerContext["caller"], meta: LedgerMeta | undefined): void {
  if (meta?.action && caller.actions.includes(meta.action)) return;
  throw new DomainError(403, `${caller.principal} may not perform ${meta?.action ?? "this action"}`, {
    error: "AccessDenied",
    headers: { "x-amzn-errortype": "AccessDenied" },
  });
}

/**
 * Every ledger procedure: the caller's key must hold the procedure's action
 * (refuseUnlessAllowed), a write that does not check If-Match and the other
 * preconditions (RestMeta.conditional) refuses them with a 400 rather than
 * write unchecked, a database that does not answer
 * is a 503, and a write that succeeded is announced to the event feed's
 * waiting readers. One middleware for all: each one tRPC runs copies the
 * call's options twice, a cost every post pays.
 */
export const ledgerProcedure = t.procedure.use(async ({ ctx, meta, next, type }) => {
  refuseUnlessAllowed(ctx.caller, meta);
  if (type === "mutation" && !meta?.rest?.conditional && hasPreconditions(ctx.preconditions)) {
    throw new DomainError(
      400,
      "this write does not check If-Match, If-None-Match or If-Unmodified-Since; send it without them",
    );
  }
  const result = await next();
  if (type === "mutation" && result.ok) ctx.announceChange();
  return domainErrorsForTrpc(result, isDatabaseUnavailable);
});
