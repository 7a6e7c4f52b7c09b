import { createHash } from "node:crypto";
import { invalidRequestError } from "@app/rest/errors";
import { calendarDate } from "@app/rest/fields";
import { z } from "zod";

/**
 * Cursors of the ledger's lists: opaque to clients (base64url of JSON), each
 * naming its list (and the account whose list it is) and carrying a check of
 * its own bytes, so that a cursor of another list, or one edited by hand, is
 * a 400 rather than a page of something else. They are not secret: a made-up
 * position only starts a page there.
 */
export function listCursor<const P extends readonly [z.ZodType, ...z.ZodType[]]>(
  list: string,
  ...position: P
) {
  const shape = z.tuple(position);
  type Position = z.output<typeof shape>;
  return {
    encode(scope: string | null, at: Position): string {
      const body = JSON.stringify([listName(list, scope), at]);
      return Buffer.from(JSON.stringify([body, check(body)])).toString("base64url");
    },
    /** The position a cursor of this list holds; a 400 at `field` for any other string. */
    decode(scope: string | null, cursor: string, field = "cursor"): Position {
      const parsed = parseCursor(cursor);
      if (parsed && parsed[0] === listName(list, scope)) {
        const at = shape.safeParse(parsed[1]);
        if (at.success) return at.data;
      }
      throw invalidRequestError([{ path: field, message: "is not a cursor of this list" }]);
    },
  };
}

/**
 * Parts of a position, each in the range of the PostgreSQL type its list
 * compares it as: an edited cursor past one (a 20-digit seq, the year 0) is
 * a 400 like any other edit, never a statement the database refuses (a 500).
 */
export const cursorPart = {
  /** A `bigint` (a sequence number). */
  bigint: () => unsignedBelow(2n ** 63n),
  /** An `xid8` (a transaction id). */
  xid8: () => unsignedBelow(2n ** 64n),
  /** A `date`. */
  date: calendarDate,
  /** A `timestamptz` as the lists write it (UTC, `Z`), from year 1 as calendarDate's. */
  datetime: () => z.iso.datetime().refine((iso) => !iso.startsWith("0000")),
};

const unsignedBelow = (limit: bigint) =>
  z
    .string()
    .regex(/^[0-9]{1,20}$/)
    .refine((digits) => BigInt(digits) < limit);

const listName = (list: string, scope: string | null) => (scope === null ? list : `${list}/${scope}`);

const check = (body: string) => createHash("sha256").update(body).digest("base64url").slice(0, 12);

const envelope = z.tuple([z.string(), z.string()]);

function parseCursor(cursor: string): [unknown, unknown] | null {
  try {
    const outer = envelope.safeParse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    if (!outer.success || check(outer.data[0]) !== outer.data[1]) return null;
    const inner = JSON.parse(outer.data[0]) as unknown;
    return Array.isArray(inner) && inner.length === 2 ? [inner[0], inner[1]] : null;
  } catch {
    return null;
  }
}

/** A `cursor` query parameter as every list declares it. */
export const cursorInput = () =>
  z
    .string()
    .max(500)
    .optional()
    .meta({ description: "The `next_cursor` of the page before; absent: the first page." });

/** `next_cursor` as every list answers it. */
export const nextCursorOutput = () =>
  z.string().nullable().meta({ description: "The next page's cursor; null on the last page." });
