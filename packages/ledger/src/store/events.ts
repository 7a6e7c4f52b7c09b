import { isoTimestampSql, queryRows, type Database } from "@app/db";
import { cursorPart, listCursor } from "../list-cursor.ts";
import type { LedgerEvent } from "../schemas.ts";
import { ACCOUNT_JSON, TRANSACTION_JSON } from "./sql.ts";

/** A place in the feed: after the event (xact, seq); see the migration ledger_metadata_pages_and_events. */
const eventsCursor = listCursor("events", cursorPart.xid8(), cursorPart.bigint());

export interface EventPage {
  items: LedgerEvent[];
  next_cursor: string;
}

/**
 * The events after `after` (absent: from the start) in feed order, only of
 * transactions below the oldest one still running: every one of those has
 * ended, and any that ends later has a higher xact than all read here. So a
 * reader that follows next_cursor sees each change once, none before its
 * commit, and no late commit skipped. `end`: no items, and the cursor where
 * what is not yet readable begins.
 */
export async function readEvents(db: Database, after: string | undefined, limit: number): Promise<EventPage> {
  if (after === "end") {
    const [row] = await queryRows<{ xmin: string }>(
      db,
      `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`,
    );
    // Events of xact xmin itself are still to come: (xmin, 0) is before all of them.
    return { items: [], next_cursor: eventsCursor.encode(null, [row!.xmin, "0"]) };
  }
  const [xact, seq] = after === undefined ? ["0", "0"] : eventsCursor.decode(null, after, "after");
  const rows = await queryRows<{ xact: string; seq: string; event: LedgerEvent }>(
    db,
    `SELECT e.xact::text AS xact, e.seq::text AS seq,
            json_build_object('id', e.seq::text, 'type', e.type, 'created_at', ${isoTimestampSql("e.created_at")},
              'data', CASE WHEN e.account IS NOT NULL
                THEN (SELECT ${ACCOUNT_JSON} FROM jsonb_populate_record(NULL::ledger.accounts, e.account) a)
                ELSE (SELECT ${TRANSACTION_JSON} FROM ledger.transactions t WHERE t.id = e.resource_id) END) AS event
       FROM ledger.events e
      WHERE (e.xact, e.seq) > ($1::xid8, $2::bigint) AND e.xact < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY e.xact, e.seq
      LIMIT $3`,
    xact,
    seq,
    limit,
  );
  const last = rows.at(-1);
  return {
    items: rows.map((row) => row.event),
    next_cursor: eventsCursor.encode(null, last ? [last.xact, last.seq] : [xact, seq]),
  };
}

/** What a long poll waits on: the next sign of a change (or of the server stopping), or `ms`. */
export interface ChangeSignal {
  next(ms: number): Promise<void>;
  /** How often the waits under way were ended (a drain began): a wait ends when it moves. */
  readonly endings: number;
  /** True once the server stops: waits end at once. */
  readonly stopped: boolean;
}

/**
 * readEvents, and with nothing new, again at each sign of a change until
 * `waitMs` has passed, or the waits under way are ended, or the server stops:
 * then the empty page as it is.
 */
export async function waitForEvents(
  db: Database,
  changes: ChangeSignal,
  after: string | undefined,
  limit: number,
  waitMs: number,
): Promise<EventPage> {
  const until = Date.now() + waitMs;
  const { endings } = changes;
  let page = await readEvents(db, after, limit);
  const waits = () => !changes.stopped && changes.endings === endings && Date.now() < until;
  while (page.items.length === 0 && after !== "end" && waits()) {
    await changes.next(until - Date.now());
    page = await readEvents(db, after, limit);
  }
  return page;
}
