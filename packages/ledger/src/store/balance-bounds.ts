import { isConstraintViolation } from "@app/db";
import { DomainError, serviceUnavailable } from "@app/rest/errors";
import type { NewTransaction } from "./insert-transactions.ts";

/**
 * A bounded account as a check needs it: its bounds, the sum of all its
 * entries, and what its open holds may still add (debits) and take (credits),
 * as exact digits.
 */
export interface BoundedAccount {
  min_balance: number | null;
  max_balance: number | null;
  total: string;
  pending_debits: string;
  pending_credits: string;
}

/**
 * The bounded accounts among the ids in parameter `$accounts`, by id, each
 * with the sum of every entry it has, whatever its date (the rule's "posted
 * total"), and all its open holds' reservations, those that posts being
 * checked will post included (boundsCheck releases each for its own post):
 * both from the account's partial sums (ledger.pending_of).
 */
export const boundedAccountsSql = (accounts: number) => `SELECT json_object_agg(a.id, json_build_object(
    'min_balance', a.min_balance, 'max_balance', a.max_balance,
    'total', p.total::text, 'pending_debits', p.debits::text, 'pending_credits', p.credits::text))
  FROM ledger.accounts a CROSS JOIN LATERAL ledger.pending_of(a.id, '{}'::uuid[]) p
 WHERE a.id = ANY($${accounts}::uuid[]) AND (a.min_balance IS NOT NULL OR a.max_balance IS NOT NULL)`;

/** What an open hold reserves on each account: the net of its entries there, as exact digits. */
export type HoldReservation = Record<string, string>;

/**
 * The bounds check of posts taken one after another: a post is refused (422
 * BALANCE_LIMIT_EXCEEDED, each account with its bound and the sum it would
 * reach in `issues`) when, on an account it moves toward a bound, the sum
 * with what open holds may still move that way would pass it; a post that
 * passes counts for the ones after it (a hold among the open holds). The post
 * of a hold is checked without that hold's own reservation
 * (`reservationOf`), which it releases when it passes: until then the hold's
 * room is not free for the posts before it. An account already beyond a
 * bound may still move back toward its range.
 */
export function boundsCheck(
  bounded: Record<string, BoundedAccount>,
  reservationOf: (holdId: string) => HoldReservation | undefined,
): (tx: NewTransaction) => DomainError | null {
  const sums = new Map(
    Object.entries(bounded).map(([id, account]) => [
      id,
      {
        total: BigInt(account.total),
        debits: BigInt(account.pending_debits),
        credits: BigInt(account.pending_credits),
      },
    ]),
  );
  /** Takes the hold's reservation out of the sums (`sign` 1n), or puts it back (-1n). */
  const release = (holdId: string, sign: bigint) => {
    for (const [id, net] of Object.entries(reservationOf(holdId) ?? {})) {
      const sum = sums.get(id);
      if (!sum) continue;
      const amount = BigInt(net) * sign;
      if (BigInt(net) > 0n) sum.debits -= amount;
      else sum.credits -= amount;
    }
  };
  return (tx) => {
    // Each hold once: checkPosts refuses a second post of it before its bounds.
    const releases = tx.holdId;
    if (releases) release(releases, 1n);
    const moves = movesOf(tx, bounded);
    const issues = [...moves].flatMap(([id, { move, entry }]) => {
      const { min_balance: min, max_balance: max } = bounded[id]!;
      const { total, debits, credits } = sums.get(id)!;
      const reach = total + (move > 0n ? debits : credits) + move;
      const passed =
        move > 0n && max !== null && reach > BigInt(max)
          ? `max_balance ${max}`
          : move < 0n && min !== null && reach < BigInt(min)
            ? `min_balance ${min}`
            : null;
      return passed
        ? [{ path: `entries.${entry}`, message: `account ${id} would reach ${reach}, past its ${passed}` }]
        : [];
    });
    if (issues.length > 0) {
      if (releases) release(releases, -1n);
      return new DomainError(
        422,
        `a balance limit would be passed: ${issues.map((i) => i.message).join("; ")}`,
        {
          error: "BALANCE_LIMIT_EXCEEDED",
          details: { issues },
        },
      );
    }
    for (const [id, { move }] of moves) {
      const sum = sums.get(id)!;
      if (tx.holdSeconds === null) sum.total += move;
      else if (move > 0n) sum.debits += move;
      else sum.credits += move;
    }
    return null;
  };
}

/** What a post moves each bounded account by, with the first of its entries there. */
function movesOf(tx: NewTransaction, bounded: Record<string, BoundedAccount>) {
  const moves = new Map<string, { move: bigint; entry: number }>();
  tx.entries.forEach(({ account_id, amount }, entry) => {
    if (!(account_id in bounded)) return;
    const known = moves.get(account_id);
    moves.set(account_id, { move: (known?.move ?? 0n) + BigInt(amount), entry: known?.entry ?? entry });
  });
  return moves;
}

/** How often a checked write is tried again when others took an account's room between check and commit. */
const ATTEMPTS = 20;

/**
 * Runs a check-then-write until its commit is not refused by an account's
 * bounds. The check reads committed sums; another writer may commit into the
 * same room before this write does, and then the database refuses it at
 * commit (the transactions_within_bounds trigger): the next round checks
 * again, with that writer's posts counted. Every round in which some writer
 * commits makes progress; one that keeps losing ends as a 503 to retry.
 */
export async function untilWithinBounds<T>(checkThenWrite: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await checkThenWrite();
    } catch (error) {
      if (!isConstraintViolation(error, "accounts_balance_limits")) throw error;
      if (attempt === ATTEMPTS) {
        throw serviceUnavailable("the account's balance limits are contended; try again shortly", error);
      }
    }
  }
}
