/**
 * A day of the API's timestamps (UTC) as the person's own calendar has it, in
 * the browser's time zone and language ("Mar 9, 2026"): the UTC day is
 * tomorrow's for a link made on an evening in the Americas.
 */
export const localDay = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" });

/**
 * Whether a link or token no longer works, as the server decides it: from
 * its `expires_at` on. The API lists such ones until they are revoked, and
 * they still count toward the cap on how many there may be.
 */
export const hasExpired = (expiresAt: string | null) =>
  expiresAt !== null && Date.parse(expiresAt) <= Date.now();
