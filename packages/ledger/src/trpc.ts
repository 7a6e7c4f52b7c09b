/**
 * The ledger's tRPC instance, served as REST only. The SigV4 check runs in
 * front of it (apps/ledger); each procedure names the action it needs.
 */
import { initTRPC } from "@trpc/server";
import { isDatabaseUnavailable, type Database } from "@app/db";
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
}

// Optional only for trpc-to-openapi's types; a procedure without one is refused.
export type LedgerMeta = ServiceMeta & { action?: LedgerAction };

// ---------------------------------------------------------------- instance

const t = initTRPC.context<LedgerContext>().meta<LedgerMeta>().create({ errorFormatter: formatTrpcError });

export const router = t.router;

// ---------------------------------------------------------------- procedures

/**
 * Every ledger procedure: the caller's key must hold the procedure's action
 * (403 AccessDenied, AWS's name for it), and a database that does not answer
 * is a 503. One middleware for both: each one tRPC runs copies the call's
 * options twice, a cost every post pays.
 */
export const ledgerProcedure = t.procedure.use(async ({ ctx, meta, next }) => {
  if (!meta?.action || !ctx.caller.actions.includes(meta.action)) {
    throw new DomainError(403, `${ctx.caller.principal} may not perform ${meta?.action ?? "this action"}`, {
      error: "AccessDenied",
      headers: { "x-amzn-errortype": "AccessDenied" },
    });
  }
  return domainErrorsForTrpc(await next(), isDatabaseUnavailable);
});
