import { batchCalls, withTimeout, type Database } from "@app/db";
import { countRequests, countRequestsAndReadVersions, type WindowCount } from "@app/resume";

/** How long GET /me/resume waits for its count and version before the database counts as unavailable. */
const WHOLE_RESUME_READ_TIMEOUT_MS = 1_000;

export interface SharedRateLimit {
  /** Counts one request of `userId`: 0 when it is within the limit, else the seconds until it would be. */
  take(userId: string): Promise<number>;
  /**
   * `take`, and the user's resume version (null for someone without one),
   * in one round trip: the whole-resume path's only query when it answers
   * from memory.
   */
  takeAndReadVersion(userId: string): Promise<{ retryAfter: number; version: string | null }>;
}

/** One request waiting to be counted (each its own key: a user's requests are all counted). */
interface Ticket {
  userId: string;
}

/**
 * RATE_LIMIT_PER_MINUTE per user across every instance: the counts live in
 * PostgreSQL (resume.rate_limits, unlogged). The requests that arrive while a
 * count is running are counted together by the next statement (batchCalls),
 * so a burst costs about two statements, not one each.
 */
export function createSharedRateLimit(db: Database, limitPerMinute: number): SharedRateLimit {
  /** Each request's place in its user's window decides it: within the limit, or the seconds left. */
  function decide<T extends WindowCount>(tickets: Ticket[], counts: Map<string, T>) {
    const seen = new Map<string, number>();
    const batchHits = new Map<string, number>();
    for (const { userId } of tickets) batchHits.set(userId, (batchHits.get(userId) ?? 0) + 1);
    return new Map(
      tickets.map((ticket) => {
        const window = counts.get(ticket.userId)!;
        const earlier = seen.get(ticket.userId) ?? 0;
        seen.set(ticket.userId, earlier + 1);
        const place = window.count - batchHits.get(ticket.userId)! + earlier + 1;
        const retryAfter = place <= limitPerMinute ? 0 : Math.max(1, window.secondsLeft);
        return [ticket, { retryAfter, window }];
      }),
    );
  }

  const take = batchCalls(async (tickets: Ticket[]) => {
    const decided = decide(
      tickets,
      await countRequests(
        db,
        tickets.map((t) => t.userId),
      ),
    );
    return new Map(tickets.map((t) => [t, decided.get(t)!.retryAfter]));
  });
  const takeAndReadVersion = batchCalls(async (tickets: Ticket[]) => {
    const counts = await withTimeout(
      countRequestsAndReadVersions(
        db,
        tickets.map((t) => t.userId),
      ),
      WHOLE_RESUME_READ_TIMEOUT_MS,
    );
    const decided = decide(tickets, counts);
    return new Map(
      tickets.map((t) => {
        const { retryAfter, window } = decided.get(t)!;
        return [t, { retryAfter, version: window.version }];
      }),
    );
  });

  return {
    take: (userId) => take({ userId }),
    takeAndReadVersion: (userId) => takeAndReadVersion({ userId }),
  };
}
