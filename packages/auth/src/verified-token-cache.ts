/**
 * Tokens this process has fully verified, by the token string: verifying an
 * ES256 signature costs more CPU than the rest of a small request, and REST
 * clients send the same token again and again. Only a verified token goes in.
 * It is served from here until its own `exp` (without the verifier's clock
 * tolerance) but never longer than `maxAgeMs` after it was verified, so a key
 * taken out of the JWKS stops the tokens it signed within that time, as the
 * JWKS's own cache would (jose keeps a fetched JWKS for up to ten minutes).
 * At most `limit` tokens are kept; past that, one not used lately goes: the
 * oldest, unless it was used since it was last passed over (then it goes to
 * the back, and the next is looked at). An approximation of least recently
 * used that changes nothing in the map on a hit: deleting and re-inserting on
 * every hit made V8 replace the map's table every few requests, and the chain
 * of replaced tables was kept alive by GC (see TrackedSocket in @app/service).
 */
export interface VerifiedTokenCache {
  /** The user of a verified token still good at `nowMs`, else undefined. */
  get(token: string, nowMs: number): string | undefined;
  set(token: string, userId: string, expiresAtMs: number, nowMs: number): void;
  readonly size: number;
}

export function createVerifiedTokenCache({ limit = 1_000, maxAgeMs = 5 * 60_000 } = {}): VerifiedTokenCache {
  // A Map iterates in insertion order: the first entry is the one inserted longest ago.
  const entries = new Map<string, { userId: string; goodUntilMs: number; used: boolean }>();

  function dropOneNotUsedLately() {
    for (const [token, entry] of entries) {
      entries.delete(token);
      if (!entry.used) return;
      entry.used = false;
      entries.set(token, entry);
    }
  }

  return {
    get(token, nowMs) {
      const entry = entries.get(token);
      if (!entry) return undefined;
      if (nowMs >= entry.goodUntilMs) {
        entries.delete(token);
        return undefined;
      }
      entry.used = true;
      return entry.userId;
    },
    set(token, userId, expiresAtMs, nowMs) {
      entries.delete(token);
      if (entries.size >= limit) dropOneNotUsedLately();
      entries.set(token, { userId, goodUntilMs: Math.min(expiresAtMs, nowMs + maxAgeMs), used: false });
    },
    get size() {
      return entries.size;
    },
  };
}
