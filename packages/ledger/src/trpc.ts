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
 * Every ledger procedure: the caller's key must hold the procedure's action
 * (403 AccessDenied, AWS's name for it), a database that does not answer
 * is a 503, and a write that succeeded is announced to the event feed's
 * waiting readers. One middleware for all: each one tRPC runs copies the
 * call's options twice, a cost every post pays.
 */
export const ledgerProcedure = t.procedure.use(async ({ ctx, meta, next, type }) => {
  if (!meta?.action || !ctx.caller.actions.includes(meta.action)) {
    throw new DomainError(403, `${ctx.caller.principal} may not perform ${meta?.action ?? "this action"}`, {
      error: "AccessDenied",
      headers: { "x-amzn-errortype": "AccessDenied" },
    });
  }
  const result = await next();
  if (type === "mutation" && result.ok) ctx.announceChange();
  return domainErrorsForTrpc(result, isDatabaseUnavailable);
});
