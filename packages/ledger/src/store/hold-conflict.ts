import { DomainError } from "@app/rest/errors";
import type { Transaction } from "../schemas.ts";

/**
 * Why a transaction cannot be posted or voided as a hold now (409), from its
 * derived status; null while it is a pending hold.
 */
export function holdConflict(hold: Pick<Transaction, "id" | "status" | "expires_at">): DomainError | null {
  if (hold.expires_at === null) {
    return new DomainError(409, `transaction ${hold.id} is not a hold`, { error: "NOT_A_HOLD" });
  }
  switch (hold.status) {
    case "voided":
      return new DomainError(409, `hold ${hold.id} was voided`, { error: "HOLD_VOIDED" });
    case "posted":
      return new DomainError(409, `hold ${hold.id} was posted`, { error: "HOLD_ALREADY_POSTED" });
    case "expired":
      return new DomainError(409, `hold ${hold.id} expired at ${hold.expires_at}`, { error: "HOLD_EXPIRED" });
    default:
      return null;
  }
}
