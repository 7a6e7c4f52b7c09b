import { DomainError } from "@app/rest/errors";

/**
 * The 412 of a conditional write (If-Match...) whose resource (`what`) is at
 * another version than the request's preconditions ask for, or is not there.
 */
export const versionConflict = (what: string, current: string | null) =>
  new DomainError(
    412,
    current === null
      ? `there is no ${what} at the version the request names (If-Match); create it first`
      : `the ${what} is at version "${current}" (its updated_at), not the one the request's preconditions ask for: read it again before writing over it`,
  );
