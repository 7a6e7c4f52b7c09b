import { z } from "zod";
import { COLLECTIONS, type CollectionName } from "../collections.ts";
import { LIMITS } from "../limits.ts";
import { THEME_NAMES } from "../themes/theme-names.ts";
import { bodyIgnoringServerFields, optionalString, requiredString } from "./fields.ts";

/** Which entries of one collection a version shows: every one, now and later, or those listed. */
const entryChoice = z
  .union([
    z.literal("all"),
    z
      .array(z.uuid("must be the id of an entry"))
      .max(LIMITS.entriesPerCollection, `must have at most ${LIMITS.entriesPerCollection} ids`),
  ])
  .meta({
    description:
      '`"all"`: every entry, those added later too; or the ids of the entries shown (in the collection\'s own order), which later entries never join.',
  });

export type EntryChoice = "all" | string[];
export type VersionInclude = Record<CollectionName, EntryChoice>;

const includeShape = Object.fromEntries(
  COLLECTIONS.map((c) => [c.name, entryChoice.optional().default("all")]),
) as Record<CollectionName, z.ZodDefault<z.ZodOptional<typeof entryChoice>>>;

/** A version's fields, as created and replaced (PUT replaces every field, as for entries). */
export const tailoredVersionFields = z.strictObject({
  name: requiredString(100),
  headline: optionalString().meta({
    description: "Shown instead of the profile's headline; null: the profile's.",
  }),
  summary: optionalString(LIMITS.textLength).meta({
    description: "Shown instead of the profile's summary; null: the profile's.",
  }),
  theme: z
    .enum(THEME_NAMES, `must be one of the installed themes: ${THEME_NAMES.join(", ")}`)
    .nullish()
    .transform((v) => v ?? null)
    .meta({
      description: `The theme of its HTML page and public page; null: the default (${THEME_NAMES[0]}).`,
    }),
  hide_email: z
    .boolean()
    .default(false)
    .meta({ description: "Leave the profile's email out of every format." }),
  include: z
    .strictObject(includeShape)
    .optional()
    .transform(
      (value) => value ?? (Object.fromEntries(COLLECTIONS.map((c) => [c.name, "all"])) as VersionInclude),
    )
    .meta({ description: 'One key per collection; a collection left out is `"all"`.' }),
});

/** Server fields sent back (`id`, `created_at`, `updated_at`) are ignored, so GET, edit, PUT works, as for entries. */
export const tailoredVersionInput = bodyIgnoringServerFields(
  tailoredVersionFields,
  [],
  "TailoredVersionInput",
);
export const tailoredVersionReplaceInput = bodyIgnoringServerFields(
  tailoredVersionFields.extend({ id: z.uuid("must be a uuid") }),
  ["id"],
);

export type TailoredVersionInput = z.output<typeof tailoredVersionFields>;

export const tailoredVersionOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    headline: z.string().nullable(),
    summary: z.string().nullable(),
    theme: z.enum(THEME_NAMES).nullable(),
    hide_email: z.boolean(),
    include: z.object(
      Object.fromEntries(
        COLLECTIONS.map((c) => [c.name, z.union([z.literal("all"), z.array(z.uuid())])]),
      ) as Record<CollectionName, z.ZodUnion<[z.ZodLiteral<"all">, z.ZodArray<z.ZodUUID>]>>,
    ),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({
    id: "TailoredVersion",
    description:
      "A view of the resume: the ids listed are those of entries that still exist, in their collection's order.",
  });

export type TailoredVersion = z.output<typeof tailoredVersionOutput>;
