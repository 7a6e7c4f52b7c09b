import { batchCalls, isRefusedValue, type Database } from "@app/db";
import { leaseRequests, USER_REQUESTS, type RequestCounter } from "@app/resume";

export interface SharedRateLimit {
  /** Counts one request of `userId`: 0 when it is within the limit, else the seconds until it would be. */
  take(userId: string): Promise<number>;
  /**
   * The seconds until `userId` may send again when this instance already
   * knows its window is used up (what `take` would answer, with no query),
   * else 0: `take` decides.
   */
  refusedFromMemory(userId: string): number;
  /** The users whose window this instance still holds in memory (a metric). */
  heldWindows(): number;
}

/** Past this many held windows, the ended ones are looked for, at most once per SWEEP_EVERY_MS. */
const SWEEP_ABOVE = 10_000;
/** A sweep visits every held window: once a second, not on every request. */
const SWEEP_EVERY_MS = 1_000;

/** What this instance holds of one user's current window. */
interface Allowance {
  /** Requests leased from the shared count and not used yet. */
  available: number;
  /** The window's count as of the last lease: what other instances have taken too. */
  knownCount: number;
  windowEndsAt: number;
  /** The limit is reached: every request is refused until the window ends. */
  exhausted: boolean;
}

/**
 * RATE_LIMIT_PER_MINUTE per user across every instance. The count lives in
 * PostgreSQL (resume.rate_limits, unlogged); an instance leases requests from
 * it in blocks and answers from the block until it is used up, so most
 * requests cost no query at all. A block is an eighth of what is left of the
 * window (at most 32, or 1% of a larger limit): never more than the limit is
 * allowed in all, and an instance holds few requests back from the others
 * when little is left.
 * Leases that are wanted at once go in one statement (batchCalls). A request
 * past the limit answers from memory until the window ends. The public pages
 * count per client address the same way (`counter`: CLIENT_ADDRESS_REQUESTS).
 */
export function createSharedRateLimit(
  db: Database,
  limitPerMinute: number,
  counter: RequestCounter = USER_REQUESTS,
): SharedRateLimit {
  const allowances = new Map<string, Allowance>();
  /** The most one lease takes, which other instances cannot use: 32, or 1% of a larger limit. */
  const mostPerLease = Math.max(32, Math.floor(limitPerMinute / 100));
  const blockFor = (allowance: Allowance | undefined) =>
    Math.min(mostPerLease, Math.max(1, Math.floor((limitPerMinute - (allowance?.knownCount ?? 0)) / 8)));

  // A user id the database refuses fails that user's lease alone.
  const lease = batchCalls(
    async (userIds: string[]) => {
      const wanted = userIds.map((userId) => ({ userId, wanted: blockFor(live(userId)) }));
      const leases = await leaseRequests(db, wanted, counter);
      const now = Date.now();
      for (const { userId, wanted: asked } of wanted) {
        const { countBefore, msLeft } = leases.get(userId)!;
        const granted = Math.max(0, Math.min(asked, limitPerMinute - countBefore));
        const current = live(userId);
        allowances.set(userId, {
          available: (current?.available ?? 0) + granted,
          knownCount: countBefore + asked,
          windowEndsAt: now + msLeft,
          exhausted: granted === 0,
        });
      }
      return new Map(userIds.map((id) => [id, undefined]));
    },
    { isolate: isRefusedValue },
  );

  /** The user's allowance if its window has not ended. */
  function live(userId: string): Allowance | undefined {
    const allowance = allowances.get(userId);
    if (allowance && allowance.windowEndsAt > Date.now()) return allowance;
    allowances.delete(userId);
    return undefined;
  }

  let nextSweepAt = 0;
  function forgetEndedWindows() {
    if (allowances.size < SWEEP_ABOVE || Date.now() < nextSweepAt) return;
    nextSweepAt = Date.now() + SWEEP_EVERY_MS;
    for (const userId of allowances.keys()) live(userId);
  }

  return {
    async take(userId) {
      forgetEndedWindows();
      for (;;) {
        const allowance = live(userId);
        if (allowance && allowance.available > 0) {
          allowance.available -= 1;
          return 0;
        }
        if (allowance?.exhausted) return secondsLeftOf(allowance);
        await lease(userId);
      }
    },
    refusedFromMemory(userId) {
      const allowance = live(userId);
      return allowance?.exhausted && allowance.available === 0 ? secondsLeftOf(allowance) : 0;
    },
    heldWindows: () => allowances.size,
  };
}

/** The seconds until the allowance's window ends: a Retry-After, at least 1. */
const secondsLeftOf = (allowance: Allowance) =>
  Math.max(1, Math.ceil((allowance.windowEndsAt - Date.now()) / 1000));
