import { z } from "zod";
import {
  ETAG_HEADER,
  idempotencyKeyOf,
  REPLAYED_HEADER,
  retrySafeDescription,
  synchronouslyParsed,
  versionCheckOf,
} from "@app/rest";
import type { Collection } from "../collections.ts";
import { createEntry, deleteEntry, getEntry, listEntries, replaceEntry } from "../store/collection-store.ts";
import { deletedOutput, idInput } from "../schemas/fields.ts";
import { router, userProcedure } from "../trpc.ts";
import { answerCreated, KEY_REUSED_ERROR, RESUME_KEY_HEADER } from "./retry-safe-create.ts";

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
          description: retrySafeDescription("adding a second entry"),
          requestHeaders: RESUME_KEY_HEADER,
        },
        rest: {
          successStatus: 201,
          successHeaders: {
            Location: "The new entry's URL.",
            ...ETAG_HEADER,
            ...REPLAYED_HEADER,
          },
          errors: {
            409: `The caller already has the maximum number of ${name} entries.`,
            ...KEY_REUSED_ERROR,
          },
        },
      })
      .input(collection.createInput)
      .output(collection.output)
      .mutation(async ({ ctx, input }) => {
        const key = idempotencyKeyOf(ctx.idempotencyKey);
        const created = await createEntry(ctx.db, collection, ctx.userId, input, key);
        return answerCreated(ctx.response, `${path}/${created.made.id}`, created);
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
