import { calendarDate, IGNORED_BODY_FIELDS, text } from "@app/rest/fields";
import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { DATE_PRECISIONS, DEFAULT_DATE_PRECISION } from "../resume-dates.ts";

/** A required one-line string: trimmed, not empty, at most `max` characters. */
export const requiredString = (max: number = LIMITS.nameLength) =>
  text().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

/** An optional string: trimmed; empty, null or omitted all store null. */
export const optionalString = (max: number = LIMITS.nameLength) =>
  text()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

/** A value trimmed if it is text, a blank one given as `blank`. */
const trimmedText = (blank: "" | null) => (value: unknown) =>
  typeof value === "string" ? value.trim() || blank : value;

/** A calendar date, `YYYY-MM-DD`, trimmed like every string of a body (documented as `format: date`). */
export const requiredDate = () => z.preprocess(trimmedText(""), calendarDate());

/** An optional date: trimmed; empty, null or omitted all store null, as for an optional string. */
export const optionalDate = () =>
  z.preprocess(trimmedText(null), calendarDate().nullish()).transform((v) => v ?? null);

/** How an entry's dates read on the resume; `month` unless sent. */
export const datePrecision = () =>
  z
    .enum(DATE_PRECISIONS)
    .default(DEFAULT_DATE_PRECISION)
    .meta({
      description:
        "How the entry's dates read on the resume: `month` (Sep 2018) or `year` (2018). The dates stay whole days; " +
        "a JSON Resume item dated with years alone (`2018`) is imported as `year`.",
    });

/** `date_precision` as answered. */
export const datePrecisionOutput = () => z.enum(DATE_PRECISIONS);

/** An absolute http(s) URL (documented as `format: uri`). */
export const httpUrl = () =>
  text()
    .trim()
    .max(LIMITS.urlLength)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
      } catch {
        return false;
      }
    }, "must be an absolute http(s) URL")
    // A browser takes one with a space, but it is no URI: the JSON Resume export would not be valid.
    .refine((value) => !/\s/.test(value), "must not contain spaces: write one as %20")
    .meta({ format: "uri" });

/** An optional absolute http(s) URL: trimmed; empty, null or omitted all store null, as for an optional string. */
export const optionalHttpUrl = () =>
  z.preprocess(trimmedText(null), httpUrl().nullish()).transform((v) => v ?? null);

/** An optional email address: trimmed; empty, null or omitted all store null, as for an optional string. */
export const optionalEmail = () =>
  z
    .preprocess(trimmedText(null), z.email("must be an email address").max(254).nullish())
    .transform((v) => v ?? null);

/** A list of short texts (responsibilities, accomplishments); empty items are dropped. */
export const textList = () =>
  z
    .array(text().trim().max(LIMITS.listItemLength, `must be at most ${LIMITS.listItemLength} characters`))
    .max(LIMITS.listItems, `must have at most ${LIMITS.listItems} items`)
    .optional()
    .transform((items) => (items ?? []).filter((item) => item !== ""));

/** What a DELETE answers. */
/** A path's `{id}`: the uuid of an entry or a token of the caller's. */
export const idInput = z.object({ id: z.uuid("must be a uuid") });

export const deletedOutput = z
  .object({ statusCode: z.literal(200), message: z.string() })
  .meta({ id: "Deleted", description: "It is gone." });

/** The fields the service adds to every stored resource. */
const SERVER_FIELDS = ["id", "entity_type", "pk", "sk", "created_at", "updated_at"] as const;

export const serverFieldsOutput = {
  entity_type: z.string(),
  pk: z.string(),
  sk: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
};

/**
 * A body schema that ignores server fields sent back (so GET, edit, PUT works)
 * and rejects any other unknown key. `keep` names server fields the route does
 * use, such as the path's `id`.
 */
export function bodyIgnoringServerFields<T extends z.ZodType>(
  schema: T,
  keep: readonly string[] = [],
  title?: string,
) {
  const ignored = SERVER_FIELDS.filter((field) => !keep.includes(field));
  return z
    .preprocess((value) => {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
      const copy: Record<string, unknown> = { ...value };
      for (const field of ignored) delete copy[field];
      return copy;
    }, schema)
    .meta({ ...(title && { title }), [IGNORED_BODY_FIELDS]: ignored });
}

const isDate = (value: string) => calendarDate().safeParse(value).success;

/**
 * Adds an issue at `end` when both dates are set and `end` is before `start`.
 * zod runs this even when a date failed its own check: one that is no date
 * has its own issue and is not compared.
 */
export function endNotBeforeStart<S extends string, E extends string>(start: S, end: E) {
  return (value: Record<S | E, string | null>, ctx: z.RefinementCtx) => {
    const from = value[start];
    const to = value[end];
    if (from && to && to < from && isDate(from) && isDate(to)) {
      ctx.addIssue({ code: "custom", path: [end], message: `must not be before ${start}` });
    }
  };
}
