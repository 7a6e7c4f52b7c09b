/**
 * Field rules both services' bodies share. Imports nothing but zod, so the
 * editor's browser bundle can take it (`@app/rest/fields`).
 */
import { z } from "zod";

/** PostgreSQL text cannot hold NUL, so no string may carry one. */
export const text = () =>
  z.string().refine((value) => !value.includes("\u0000"), "must not contain NUL characters");

/** A real calendar date, `YYYY-MM-DD`. */
export const calendarDate = () =>
  z.iso
    .date("must be a real date, YYYY-MM-DD")
    // The ISO pattern allows year 0000, which PostgreSQL's calendar does not have.
    .refine((date) => !date.startsWith("0000"), "must be a real date, YYYY-MM-DD");
