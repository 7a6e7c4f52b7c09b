import type { z } from "zod";
import type { FieldSpec } from "./field-specs.ts";

/** What a form holds while a person types: strings, lists of strings, a flag per open-ended date. */
export type FormValues = Record<string, string | string[] | boolean>;

export const openFlag = (name: string) => `${name}__open`;

/**
 * Where a form keeps the version (`updated_at`) of the entry it was opened
 * from, kept with its draft: its save goes only over that version (onlyOver).
 */
export const BASED_ON = "__based_on";

/** Form values for an existing entry, or for a new entry empty ones but for the server's defaults. */
export function formValuesOf(fields: FieldSpec[], entry?: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const value = entry ? entry[field.name] : field.default;
    if (field.kind === "list") values[field.name] = Array.isArray(value) ? value.map(String) : [];
    else values[field.name] = value === null || value === undefined ? "" : String(value);
    if (field.openEndedLabel) values[openFlag(field.name)] = Boolean(entry) && !value;
  }
  return values;
}

/** The request body the form values stand for, as the API and its zod schema take it. */
export function inputOf(fields: FieldSpec[], values: FormValues): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === "list") input[field.name] = value;
    else if (field.openEndedLabel && values[openFlag(field.name)]) input[field.name] = null;
    else if (value === "") input[field.name] = field.required ? "" : null;
    else if (field.kind === "number") input[field.name] = Number(value);
    else input[field.name] = value;
    // An empty required select is left out, so the schema names it missing.
    if (field.kind === "select" && value === "") delete input[field.name];
  }
  return input;
}

/**
 * What the form refuses before the schema sees it, by field: a required date
 * left empty (the schema would say it is no real date), and an end date left
 * empty without its box ticked ("Current role"), which the service stores as
 * an open end: the resume would say "Present" of a job that ended.
 */
export function unansweredDates(fields: FieldSpec[], values: FormValues): Record<string, string> {
  const refused: Record<string, string> = {};
  for (const field of fields) {
    if (field.kind !== "date" || values[field.name] !== "") continue;
    if (field.required) refused[field.name] = "must not be empty";
    else if (field.openEndedLabel && !values[openFlag(field.name)])
      refused[field.name] = `enter a date, or tick “${field.openEndedLabel}”`;
  }
  return refused;
}

/**
 * Whether two request bodies would be stored the same: as `schema` reads
 * them (the service keeps text trimmed, so a save of "Chess " stored
 * "Chess"), whatever the order of their keys (it keeps a profile's links in
 * an order of its own).
 */
export function sameInput(schema: z.ZodType, a: unknown, b: unknown): boolean {
  const [readA, readB] = [schema.safeParse(a), schema.safeParse(b)];
  return (
    readA.success &&
    readB.success &&
    JSON.stringify(sortedKeys(readA.data)) === JSON.stringify(sortedKeys(readB.data))
  );
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

/**
 * Field path -> first message, from a zod error, in the editor's words where
 * zod's are a programmer's: a select left unchosen, a refused link name
 * (zod says only "Invalid key in record"; its key schema says why).
 */
export function errorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.code === "unrecognized_keys" ? issue.keys.join(",") : issue.path.map(String).join(".");
    errors[path] ??= messageOf(issue);
  }
  return errors;
}

function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_value") return "choose one";
  if (issue.code === "invalid_key") return issue.issues.map((inner) => inner.message).join("; ");
  return issue.message;
}
