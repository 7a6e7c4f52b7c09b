/**
 * Headers on every answer of the ledger. It answers JSON to programs, never a
 * page; should a browser be shown an answer anyway, it must not read it as
 * anything but JSON (nosniff), load or run anything with it, frame it (the
 * policy; X-Frame-Options for browsers without `frame-ancestors`), keep it
 * (account data for one signed caller: no cache may store it) or tell another
 * site where it was. No Strict-Transport-Security: the ledger speaks plain
 * HTTP behind whatever terminates TLS, which sends it. Names in lower case, as
 * an answer's own headers are, so that one of those replaces one of these.
 */
export const LEDGER_SECURITY_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};
