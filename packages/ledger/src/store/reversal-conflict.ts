import { DomainError } from "@app/rest/errors";

/**
 * The 409 of a second reversal of transaction `originalId`, naming the
 * reversal there is (when known), so that a caller whose first answer was
 * lost, and who tried again with a new key, finds it.
 */
export function alreadyReversed(originalId: string, reversalId: string | undefined): DomainError {
  return new DomainError(
    409,
    `transaction ${originalId} has already been reversed` +
      (reversalId ? ` by transaction ${reversalId}` : ""),
  );
}
