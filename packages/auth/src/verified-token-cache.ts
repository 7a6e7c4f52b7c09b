/**
 * Tokens this process has fully verified, by the token string: verifying an
 * ES256 signature costs more CPU than the rest of a small request, and REST
 * clients send the same token again and again. Only a verified token goes in.
 * It is served from here until its own `exp` (without the verifier's clock
 * tolerance) but never longer than `maxAgeMs` after it was verified, so a key
 * taken out of the JWKS stops the tokens it signed within that time, as the
 * JWKS's own cache would (jose keeps a fetched JWKS for up to ten minutes).
 * At most `limit` tokens are kept; past that the least recently used goes.
 */
export interface VerifiedTokenCache {
  /** The user of a verified token still good at `nowMs`, else undefined. */
  get(token: string, nowMs: number): string | undefined;
  set(token: string, userId: string, expiresAtMs: number, nowMs: number): void;
  readonly size: number;
}

export function createVerifiedTokenCache({ limit = 1_000, maxAgeMs = 5 * 60_000 } = {}): VerifiedTokenCache {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, { userId: string; goodUntilMs: number }>();
  return {
    get(token, nowMs) {
      const entry = entries.get(token);
      if (!entry) return undefined;
      entries.delete(token);
      if (nowMs >= entry.goodUntilMs) return undefined;
      entries.set(token, entry);
      return entry.userId;
    },
    set(token, userId, expiresAtMs, nowMs) {
      entries.delete(token);
      if (entries.size >= limit) entries.delete(entries.keys().next().value!);
      entries.set(token, { userId, goodUntilMs: Math.min(expiresAtMs, nowMs + maxAgeMs) });
    },
    get size() {
      return entries.size;
    },
  };
}
