"use client";
import { useState } from "react";
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
 * A form's save: validate with the server's schema first (messages at the
 * fields, nothing sent), then write; a refused write shows the server's
 * messages at its fields (an expired session goes through useFailureHandler).
 */
export function useValidatedSave() {
  const handleFailure = useFailureHandler();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [saving, setSaving] = useState(false);

  /** Resolves to true when `write` succeeded. */
  async function save(schema: z.ZodType, input: unknown, write: () => Promise<unknown>): Promise<boolean> {
    const checked = schema.safeParse(input);
    if (!checked.success) {
      setErrors(errorsOf(checked.error));
      setFailure(INVALID);
      return false;
    }
    setSaving(true);
    try {
      await write();
      setErrors({});
      setFailure(null);
      return true;
    } catch (error) {
      const described = handleFailure(error);
      setErrors(described.fieldErrors);
      setFailure(described);
      return false;
    } finally {
      setSaving(false);
    }
  }

  return { errors, failure, saving, save };
}
