import { createHash } from "node:crypto";
import { inTransaction, queryRows, type Database, type PoolTransaction } from "@app/db";
import { DomainError } from "@app/rest/errors";

/** One create of the caller's, retry-safe under an Idempotency-Key (docs/resume-api.md, "Retry-safe creates"). */
export interface Create<T> {
  userId: string;
  /** The Idempotency-Key sent (idempotencyKeyOf), or null: then it is made, and nothing is kept. */
  idempotencyKey: string | null;
  /** The route under /me/ it was sent to (`skills`, `versions`, `versions/<id>/links`): a key serves one. */
  route: string;
  /** What it makes, for the refusal's message ("send a new key for a new entry"). */
  what: string;
  /** The request as validated: a retry must send the same. */
  request: unknown;
  /** The transaction-scoped advisory lock of the route's creates (advisoryXactLock), taken first. */
  lock: [string, ...unknown[]];
  /** Makes it, under the lock; a DomainError refuses it (nothing is written, the key stays unused). */
  make: (tx: PoolTransaction) => Promise<T>;
}

/** A key that a create with another body, or on another route, has used. */
class KeyTakenMeanwhile extends Error {}

type StoredKey<T> = { route: string; request_hash: string; answer: T };
const STORED_KEY = `SELECT collection AS route, request_hash, entry AS answer
  FROM resume.idempotency_keys WHERE user_id = $1 AND idempotency_key = $2`;

/**
 * Makes what `create` makes. Under an Idempotency-Key, the first create with
 * the key stores its answer in the same transaction; a later one with the same
 * request on the same route gets that answer again (`replayed`), one with
 * another request or route a 422. Creates on one route wait for each other (the
 * lock), so the second of two concurrent ones sees the first's key; one on
 * another route waits on the key's row and is refused.
 */
export async function createOnce<T>(
  db: Database,
  create: Create<T>,
): Promise<{ made: T; replayed: boolean }> {
  const { userId, idempotencyKey, route, what, lock, make } = create;
  if (idempotencyKey === null) {
    const made = await inTransaction(db, async (tx) => {
      await tx.query(...lock);
      return make(tx);
    });
    return { made, replayed: false };
  }

  const requestHash = createHash("sha256").update(JSON.stringify(create.request)).digest("hex");
  const replayOrRefuse = (original: StoredKey<T>) => {
    if (original.route !== route || original.request_hash !== requestHash) {
      throw new DomainError(
        422,
        original.route === route
          ? `this Idempotency-Key was used with another body; send a new key for a new ${what}`
          : `this Idempotency-Key was used on /me/${original.route}; send a new key for a new ${what}`,
        { error: "IDEMPOTENCY_KEY_REUSED" },
      );
    }
    return { made: original.answer, replayed: true };
  };

  try {
    return await inTransaction(db, async (tx) => {
      await tx.query(...lock);
      const [original] = await tx.query<StoredKey<T>>(STORED_KEY, userId, idempotencyKey);
      if (original) return replayOrRefuse(original);
      const made = await make(tx);
      const [claimed] = await tx.query<{ claimed: boolean }>(
        `INSERT INTO resume.idempotency_keys (user_id, idempotency_key, collection, request_hash, entry)
         VALUES ($1, $2, $3, $4, $5::jsonb) ON CONFLICT DO NOTHING RETURNING true AS claimed`,
        userId,
        idempotencyKey,
        route,
        requestHash,
        JSON.stringify(made),
      );
      if (!claimed) throw new KeyTakenMeanwhile();
      return { made, replayed: false };
    });
  } catch (error) {
    if (!(error instanceof KeyTakenMeanwhile)) throw error;
    // Rolled back: nothing of this create was written. The key's first use decides.
    const [original] = await queryRows<StoredKey<T>>(db, STORED_KEY, userId, idempotencyKey);
    return replayOrRefuse(original!);
  }
}
