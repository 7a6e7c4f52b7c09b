export { LEDGER_API_VERSION, ledgerOpenApiDocument } from "./openapi.ts";
export { ledgerRouter, type LedgerRouter } from "./routers/ledger-router.ts";
export {
  ACCOUNT_TYPES,
  LIMITS,
  NORMAL_BALANCE,
  type Account,
  type Entry,
  type Transaction,
} from "./schemas.ts";
export { createAccount } from "./store/accounts.ts";
export { getAllBalances, getBalance, todayUtc } from "./store/balances.ts";
export { getTransaction, postTransaction, reverseTransaction } from "./store/transactions.ts";
export { verifyLedger, type LedgerViolation } from "./store/verify-ledger.ts";
export { createCallerFactory, type LedgerAction, type LedgerContext } from "./trpc.ts";
