import { z } from "zod";

/** Where a page of a list ordered by created_at, then id, descending ends. */
export interface ListPosition {
  createdAt: string;
  id: string;
}

const position = z.tuple([z.iso.datetime(), z.uuid()]);

/** The position as clients see it: opaque (base64url of its JSON), to be sent back as is. */
export function encodeListCursor({ createdAt, id }: ListPosition): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");
}

/** The position a cursor of ours holds; null for any other string. */
export function decodeListCursor(cursor: string): ListPosition | null {
  try {
    const parsed = position.safeParse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return parsed.success ? { createdAt: parsed.data[0], id: parsed.data[1] } : null;
  } catch {
    return null;
  }
}

/** A `cursor` query parameter: a 400 when it is not one this server made. */
export const listCursor = () =>
  z
    .string()
    .max(200)
    .refine((cursor) => decodeListCursor(cursor) !== null, "is not a cursor of this list");
