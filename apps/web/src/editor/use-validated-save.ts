"use client";
import { useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { errorsOf } from "./form-values.ts";
import type { SaveFailure } from "./trpc.ts";
import { useFailureHandler } from "./use-failure-handler.ts";

const INVALID: SaveFailure = {
  kind: "invalid",
  message: "Please fix the highlighted fields.",
  fieldErrors: {},
};

/**
 * The named inputs of `form` holding what the browser could not read (a
 * date typed as 02/30/2019, a number as 1e): their value is "", which would
 * save as no date or number at all, so they are refused at the field.
 */
function unreadableInputs(form: HTMLFormElement | null | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const input of form?.querySelectorAll<HTMLInputElement>("input[name]") ?? []) {
    if (!input.validity.badInput) continue;
    errors[input.name] =
      input.type === "date" ? "is not a real date: finish it, or clear it" : "is not a number";
  }
  return errors;
}

/** What a save checks besides the schema. */
interface SaveChecks {
  /** The form, whose inputs holding what the browser could not read are refused. */
  form?: HTMLFormElement | null;
  /** Fields the form itself found wrong, by path: what the input it sends no longer shows. */
  refused?: Record<string, string>;
}

/** How a save ended: saved, or why not (a SaveFailure's kind), or "busy": one was under way, nothing sent. */
export type SaveOutcome = "saved" | SaveFailure["kind"] | "busy";

/**
 * A form's save: validate with the server's schema first (messages at the
 * fields, nothing sent), with the form's own checks, then write; a refused
 * write shows the server's messages at its fields (an expired session goes
 * through useFailureHandler). The first field refused takes the focus.
 */
export function useValidatedSave() {
  const handleFailure = useFailureHandler();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [saving, setSaving] = useState(false);
  /**
   * A write under way. Its Save button stays enabled (only marked aria-disabled): a button
   * disabled while it has the focus drops the focus to the page's start, and the
   * keyboard's place with it. A second submit meanwhile sends nothing.
   */
  const writing = useRef(false);
  /** The form whose first refused field takes the focus once its messages are shown. */
  const focusIn = useRef<HTMLFormElement | null>(null);

  useEffect(() => {
    focusIn.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    focusIn.current = null;
  }, [errors]);

  async function save(
    schema: z.ZodType,
    input: unknown,
    write: () => Promise<unknown>,
    { form, refused = {} }: SaveChecks = {},
  ): Promise<SaveOutcome> {
    if (writing.current) return "busy";
    const checked = schema.safeParse(input);
    // What the browser could not read says more than a check of the empty value it gives instead.
    const found = { ...refused, ...unreadableInputs(form) };
    if (!checked.success || Object.keys(found).length > 0) {
      focusIn.current = form ?? null;
      setErrors({ ...(checked.success ? {} : errorsOf(checked.error)), ...found });
      setFailure(INVALID);
      return INVALID.kind;
    }
    setSaving(true);
    writing.current = true;
    try {
      await write();
      setErrors({});
      setFailure(null);
      return "saved";
    } catch (error) {
      const described = handleFailure(error);
      focusIn.current = form ?? null;
      setErrors(described.fieldErrors);
      setFailure(described);
      return described.kind;
    } finally {
      writing.current = false;
      setSaving(false);
    }
  }

  /** Forgets the last save's messages (the form was put back as it was saved). */
  const reset = () => {
    setErrors({});
    setFailure(null);
  };

  return { errors, failure, saving, save, reset };
}
