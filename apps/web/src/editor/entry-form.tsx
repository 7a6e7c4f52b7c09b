"use client";
import { useEffect, useRef, type FormEvent, type KeyboardEvent } from "react";
import { COLLECTIONS, enumLabel, GOAL_MOVES, type CollectionName, type EntryOf } from "@app/resume/client";
import { useEditorSession } from "./editor-session.tsx";
import { LineKeepingInput } from "./line-keeping-input.tsx";
import { SECTIONS, withLabels, type FieldSpec } from "./field-specs.ts";
import {
  BASED_ON,
  formValuesOf,
  inputOf,
  openFlag,
  sameInput,
  unansweredDates,
  type FormValues,
} from "./form-values.ts";
import { TextListEditor } from "./text-list-editor.tsx";
import { api, forgetIdempotencyKey, idempotencyKeyFor, onlyOver } from "./trpc.ts";
import { mayDiscardDraft, useSessionDraft } from "./use-session-draft.ts";
import { useValidatedSave } from "./use-validated-save.ts";

interface Props<Name extends CollectionName> {
  collection: Name;
  /** The entry being edited; absent for a new one. */
  entry?: EntryOf<Name>;
  onSaved(): void;
  onCancel(): void;
  /** The entry was found changed by another tab or app (a save refused): the section shows it anew. */
  onChangedElsewhere(): void;
  /**
   * The entry was found deleted by another tab or app (a save refused): the
   * section keeps this form open, now with `deleted`, while it shows the rest anew.
   */
  onDeletedElsewhere(): void;
  /** The entry was deleted elsewhere since the form opened: saving adds it again, with what was typed. */
  deleted?: boolean;
}

/** The add or edit form of one entry, validated with the server's own zod schema before it is sent. */
export function EntryForm<Name extends CollectionName>({
  collection,
  entry,
  onSaved,
  onCancel,
  onChangedElsewhere,
  onDeletedElsewhere,
  deleted = false,
}: Props<Name>) {
  const { userId } = useEditorSession();
  const section = SECTIONS[collection];
  const schema = COLLECTIONS.find((c) => c.name === collection)!.fields;
  const formId = `${collection}-${entry ? entry.id : "new"}`;
  const draftKey = `draft:${userId}:${formId}`;
  const [values, setValues, clearDraft] = useSessionDraft<FormValues>(draftKey, () => ({
    ...formValuesOf(section.fields, entry),
    ...(entry ? { [BASED_ON]: entry.updated_at } : {}),
  }));
  const { errors: apiErrors, failure, saving, save, reset } = useValidatedSave();
  // Messages name other fields by their labels ("must not be before Start date"), not their API names.
  const errors = Object.fromEntries(
    Object.entries(apiErrors).map(([path, message]) => [path, withLabels(message, section.fields)]),
  );
  const formRef = useRef<HTMLFormElement>(null);

  // An opened form takes the focus, so that keyboard and screen reader users land in it.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>("input, select, textarea")?.focus();
  }, []);

  const set = (name: string, value: FormValues[string]) => setValues({ ...values, [name]: value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = inputOf(section.fields, values);
    const procedures = api[collection];
    const outcome = await save(
      schema,
      input,
      () =>
        entry && !deleted
          ? procedures.replace.mutate({ id: entry.id, ...input }, { context: onlyOver(basedOn(entry)) })
          : procedures.create.mutate(input, {
              context: { headers: { "idempotency-key": idempotencyKeyFor(draftKey, input) } },
            }),
      { form: formRef.current, refused: unansweredDates(section.fields, values) },
    );
    if (outcome === "saved") {
      saved();
    } else if (outcome === "gone" && entry) {
      onDeletedElsewhere();
    } else if (outcome === "changed" && entry) {
      const current = await procedures.get.query({ id: entry.id }).catch(() => null);
      // What is there now is what this save wrote (a save sent again after its answer was lost), or
      // another tab saved the same: nothing of the person's is lost by calling it saved.
      if (
        current &&
        sameInput(schema, inputOf(section.fields, formValuesOf(section.fields, current)), input)
      ) {
        reset();
        return saved();
      }
      // Saving again goes over the version there is now: the person has been told, and chooses.
      if (current) setValues((typed) => ({ ...typed, [BASED_ON]: current.updated_at }));
      onChangedElsewhere();
    }
  }

  function saved() {
    clearDraft();
    forgetIdempotencyKey(draftKey);
    onSaved();
  }

  /** The version the draft was typed over; a draft kept from before drafts held it goes over the one shown. */
  function basedOn(shown: EntryOf<Name>): string {
    const version = values[BASED_ON];
    return typeof version === "string" ? version : shown.updated_at;
  }

  function cancel() {
    clearDraft();
    forgetIdempotencyKey(draftKey);
    onCancel();
  }

  /** Escape is Cancel, after asking when something typed would go with it. */
  function cancelOnEscape(event: KeyboardEvent) {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    event.preventDefault();
    if (mayDiscardDraft(draftKey)) cancel();
  }

  return (
    <form
      ref={formRef}
      className="card"
      onSubmit={submit}
      onKeyDown={cancelOnEscape}
      noValidate
      aria-label={`${entry ? "Edit" : "Add"} ${section.noun}`}
    >
      <div className="grid">
        {section.fields.map((field) => (
          <Field
            key={field.name}
            formId={formId}
            field={field}
            values={values}
            errors={errors}
            entry={deleted ? undefined : entry}
            set={set}
          />
        ))}
      </div>
      {failure && (
        <p className="form-error" role="alert">
          {failure.kind === "gone"
            ? `This ${section.noun} was deleted in another tab or app after you opened it, so nothing was saved. Add it again to keep what you typed, or Cancel.`
            : failure.message}
          {failure.kind === "changed" &&
            " Save again to replace that version with yours, or Cancel to keep it."}
        </p>
      )}
      <div className="actions">
        <button type="submit" aria-disabled={saving || undefined}>
          {saving
            ? "Saving…"
            : deleted
              ? `Add ${section.noun} again`
              : entry
                ? `Save ${section.noun}`
                : `Add ${section.noun}`}
        </button>
        <button type="button" className="secondary" onClick={cancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

interface FieldProps {
  formId: string;
  field: FieldSpec;
  values: FormValues;
  errors: Record<string, string>;
  entry?: Record<string, unknown> | undefined;
  set(name: string, value: FormValues[string]): void;
}

function Field({ formId, field, values, errors, entry, set }: FieldProps) {
  const id = `${formId}-${field.name}`;
  const error = errors[field.name];
  const described = {
    ...(field.required ? { "aria-required": true } : {}),
    ...(error ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {}),
  };
  const value = values[field.name];

  if (field.kind === "list") {
    return (
      <div style={{ gridColumn: "1 / -1" }}>
        <TextListEditor
          id={`${formId}.${field.name}`}
          label={field.label}
          items={value as string[]}
          errors={errors}
          onChange={(items) => set(field.name, items)}
        />
      </div>
    );
  }

  const open = field.openEndedLabel ? Boolean(values[openFlag(field.name)]) : false;
  let control;
  if (field.kind === "textarea") {
    control = (
      <textarea
        id={id}
        value={value as string}
        {...described}
        onChange={(e) => set(field.name, e.target.value)}
      />
    );
  } else if (field.kind === "select") {
    control = (
      <select
        id={id}
        value={value as string}
        {...described}
        onChange={(e) => set(field.name, e.target.value)}
      >
        {(field.required || value === "") && <option value="">Choose…</option>}
        {selectOptions(field, entry).map((option) => (
          <option key={option} value={option}>
            {(field.optionLabel ?? enumLabel)(option)}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === "text") {
    control = (
      <LineKeepingInput
        id={id}
        name={field.name}
        value={value as string}
        {...described}
        onChange={(text) => set(field.name, text)}
      />
    );
  } else {
    const type = { url: "url", date: "date", number: "number" }[field.kind];
    control = (
      <input
        id={id}
        name={field.name}
        type={type}
        value={open ? "" : (value as string)}
        disabled={open}
        step={field.kind === "number" ? "0.5" : undefined}
        {...described}
        onChange={(e) => set(field.name, e.target.value)}
      />
    );
  }

  return (
    <div>
      <label htmlFor={id} className={field.required ? "required" : undefined}>
        {field.label}
      </label>
      {control}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      {field.openEndedLabel && (
        <label className="inline">
          <input
            type="checkbox"
            checked={open}
            onChange={(e) => set(openFlag(field.name), e.target.checked)}
          />
          {field.openEndedLabel}
        </label>
      )}
    </div>
  );
}

/** A goal's status offers only the moves allowed from its stored status; other selects offer every value. */
function selectOptions(field: FieldSpec, entry: Record<string, unknown> | undefined): readonly string[] {
  if (field.name === "status" && entry?.status) {
    const current = String(entry.status) as keyof typeof GOAL_MOVES;
    return [current, ...GOAL_MOVES[current]];
  }
  return field.options ?? [];
}
