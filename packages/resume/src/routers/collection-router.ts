import { z } from "zod";
import {
  ETAG_HEADER,
  idempotencyKeyHeader,
  idempotencyKeyOf,
  synchronouslyParsed,
  versionCheckOf,
} from "@app/rest";
import type { Collection } from "../collections.ts";
import {
  createEntry,
  createEntryOnce,
  deleteEntry,
  getEntry,
  listEntries,
  replaceEntry,
} from "../store/collection-store.ts";
import { deletedOutput, idInput } from "../schemas/fields.ts";
import { router, userProcedure } from "../trpc.ts";

/** The five routes of one collection: list, create, get, replace, delete. */
export function collectionRouter<C extends Collection>(collection: C) {
  const { name, entityType, path } = collection;
  const tags = [name];
  const listOutput = synchronouslyParsed(z.object({ items: z.array(collection.output) }));
  const notFound: Record<number, string> = {
    404: `No ${entityType} entry with this id belongs to the caller.`,
  };
  const replaceErrors: Record<number, string> = collection.transition
    ? { ...notFound, 409: `A ${collection.transition.column} move that is not allowed.` }
    : notFound;

  return router({
    list: userProcedure
      .meta({
        openapi: {
          method: "GET",
          path,
          tags,
          summary: `List ${name}`,
          description: `Entries in the documented order.`,
        },
      })
      .output(listOutput)
      .query(async ({ ctx }) => ({ items: await listEntries(ctx.db, collection, ctx.userId) })),

    create: userProcedure
      .meta({
        openapi: {
          method: "POST",
          path,
          tags,
          summary: `Add an entry to ${name}`,
          description:
            "With an Idempotency-Key, a retry with the same key and body answers the first create's 201 again " +
            "(Idempotent-Replayed: true) instead of adding a second entry.",
          requestHeaders: idempotencyKeyHeader(
            "scoped to the caller across collections and kept at least 24 h",
          ),
        },
        rest: {
          successStatus: 201,
          successHeaders: {
            Location: "The new entry's URL.",
            ...ETAG_HEADER,
            "Idempotent-Replayed":
              "`true` when this is the first create's answer again, for a repeated Idempotency-Key.",
          },
          errors: {
            409: `The caller already has the maximum number of ${name} entries.`,
            422: "IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with another body or collection.",
          },
        },
      })
      .input(collection.createInput)
      .output(collection.output)
      .mutation(async ({ ctx, input }) => {
        const key = idempotencyKeyOf(ctx.idempotencyKey);
        const { entry, replayed } = key
          ? await createEntryOnce(ctx.db, collection, ctx.userId, input, key)
          : { entry: await createEntry(ctx.db, collection, ctx.userId, input), replayed: false };
        ctx.response.headers.set("Location", `${path}/${entry.id}`);
        if (replayed) ctx.response.headers.set("Idempotent-Replayed", "true");
        return entry;
      }),

    get: userProcedure
      .meta({
        openapi: {
          method: "GET",
          path: `${path}/{id}`,
          tags,
          summary: `Get one entry of ${name}`,
          description: "One of the caller's entries; another person's id is a 404, as an unknown one.",
        },
        rest: { successHeaders: ETAG_HEADER, errors: notFound },
      })
      .input(idInput)
      .output(collection.output)
      .query(({ ctx, input }) => getEntry(ctx.db, collection, ctx.userId, input.id)),

    replace: userProcedure
      .meta({
        openapi: {
          method: "PUT",
          path: `${path}/{id}`,
          tags,
          summary: `Replace one entry of ${name}`,
          description:
            "The complete entry: optional fields left out are cleared. " +
            "With If-Match (the ETag a read gave, or the entry's updated_at in quotes), it writes only over that version.",
        },
        rest: { conditional: true, errors: replaceErrors },
      })
      .input(collection.replaceInput)
      .output(collection.output)
      .mutation(({ ctx, input }) => {
        const { id, ...fields } = input;
        return replaceEntry(
          ctx.db,
          collection,
          ctx.userId,
          id,
          fields,
          versionCheckOf(ctx.preconditions) ?? undefined,
        );
      }),

    delete: userProcedure
      .meta({
        openapi: {
          method: "DELETE",
          path: `${path}/{id}`,
          tags,
          summary: `Delete one entry of ${name}`,
          description:
            "Removes one of the caller's entries for good; with If-Match, only if it is still that version.",
        },
        rest: { conditional: true, errors: notFound },
      })
      .input(idInput)
      .output(deletedOutput)
      .mutation(async ({ ctx, input }) => {
        const check = versionCheckOf(ctx.preconditions) ?? undefined;
        await deleteEntry(ctx.db, collection, ctx.userId, input.id, check);
        return { statusCode: 200 as const, message: `${entityType} entry ${input.id} deleted` };
      }),
  });
}
