/**
 * Tokens this process has fully verified, by the token string, each until its
 * own `exp`: verifying an ES256 signature costs more CPU than the rest of a
 * small request, and REST clients send the same token again and again. Only
 * a verified token goes in; a token is served from here only before its
 * `exp` (without the verifier's clock tolerance, so never longer than a
 * fresh check would accept it). A key removed from the JWKS stops new tokens
 * at once; tokens it verified earlier stay accepted until they expire, as
 * they would in any client that checked them then. At most `limit` tokens are
 * kept; past that the oldest goes first.
 */
export interface VerifiedTokenCache {
  /** The user of a verified token that has not expired at `nowMs`, else undefined. */
  get(token: string, nowMs: number): string | undefined;
  set(token: string, userId: string, expiresAtMs: number): void;
  readonly size: number;
}

export function createVerifiedTokenCache(limit = 1_000): VerifiedTokenCache {
  const entries = new Map<string, { userId: string; expiresAtMs: number }>();
  return {
    get(token, nowMs) {
      const entry = entries.get(token);
      if (!entry) return undefined;
      if (nowMs >= entry.expiresAtMs) {
        entries.delete(token);
        return undefined;
      }
      return entry.userId;
    },
    set(token, userId, expiresAtMs) {
      if (entries.size >= limit && !entries.has(token)) entries.delete(entries.keys().next().value!);
      entries.set(token, { userId, expiresAtMs });
    },
    get size() {
      return entries.size;
    },
  };
}
