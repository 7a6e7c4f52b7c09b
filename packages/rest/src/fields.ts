/**
 * Field rules both services' bodies share. Imports nothing but zod, so the
 * editor's browser bundle can take it (`@app/rest/fields`).
 */
import { z } from "zod";

/**
 * What PostgreSQL cannot store as sent, each with the words of its 400. It
 * cannot hold NUL, and a lone surrogate would reach it as U+FFFD: the stored
 * text (and every later read) would differ from what was accepted, and two
 * idempotency keys could be one.
 */
export const UNSTORABLE_TEXT: readonly (readonly [
  unstorable: (value: string) => boolean,
  message: string,
])[] = [
  [(value) => value.includes("\u0000"), "must not contain NUL characters"],
  // A UTF-16 surrogate without its other half is not a character, so not UTF-8 either.
  [(value) => !value.isWellFormed(), "must be well-formed Unicode"],
];

/**
 * The key of a body schema's metadata listing the fields of the route's
 * answer that its body may send back and that are ignored (GET, edit, PUT):
 * the OpenAPI document names them (openapi-document.ts).
 */
export const IGNORED_BODY_FIELDS = "x-ignored-body-fields";

/** A string PostgreSQL stores as sent (UNSTORABLE_TEXT). */
export const text = () =>
  UNSTORABLE_TEXT.reduce(
    (schema, [unstorable, message]) => schema.refine((value) => !unstorable(value), message),
    z.string(),
  );

/** A real calendar date, `YYYY-MM-DD`. */
export const calendarDate = () =>
  z.iso
    .date("must be a real date, YYYY-MM-DD")
    // The ISO pattern allows year 0000, which PostgreSQL's calendar does not have.
    .refine((date) => !date.startsWith("0000"), "must be a real date, YYYY-MM-DD");

/**
 * A record that refuses a `__proto__` key at that key. zod's records skip it
 * without a word (an object cannot hold it as data), so it would vanish.
 */
export const recordWithoutProtoKey = <T extends z.ZodType>(record: T, message: string) =>
  z.preprocess((value, ctx) => {
    if (typeof value === "object" && value !== null && Object.hasOwn(value, "__proto__"))
      ctx.addIssue({ code: "custom", path: ["__proto__"], message });
    return value;
  }, record);
