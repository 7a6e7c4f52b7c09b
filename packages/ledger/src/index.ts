export { LEDGER_API_VERSION, LEDGER_BODY_FIELD_AGAINST_PATH, ledgerOpenApiDocument } from "./openapi.ts";
export { ledgerRouter, type LedgerRouter } from "./routers/ledger-router.ts";
export { LIMITS, type Account, type Entry, type Transaction } from "./schemas.ts";
export { verifyLedger, type LedgerViolation } from "./store/verify-ledger.ts";
export { LEDGER_ACTIONS, refuseUnlessAllowed, type LedgerContext } from "./trpc.ts";
export { observeGroupCommits } from "./store/group-commit.ts";
export { createChangeSignal, EVENTS_CHANNEL, type ChangeSignalControl } from "./change-signal.ts";
export { sweepExpiredHolds, type ExpiredHoldsSweep } from "./expired-holds-sweep.ts";
