"use client";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { profileFields, type Profile } from "@app/resume/client";
import { useConfirmation } from "./editor-confirmation.tsx";
import { useEditorSession } from "./editor-session.tsx";
import { LineKeepingInput } from "./line-keeping-input.tsx";
import { api, isNotFound, onlyOver } from "./trpc.ts";
import { sameInput } from "./form-values.ts";
import { useSessionDraft } from "./use-session-draft.ts";
import { useValidatedSave } from "./use-validated-save.ts";

interface ProfileValues {
  name: string;
  headline: string;
  summary: string;
  location: string;
  city: string;
  region: string;
  postal_code: string;
  country_code: string;
  email: string;
  phone: string;
  goals_summary: string;
  language: string;
  links: { name: string; url: string }[];
  /** The version (`updated_at`) the values were opened from, none before the first save: the save goes only over it. */
  based_on: string | null;
}

const TEXT_FIELDS: {
  name: Exclude<keyof ProfileValues, "links" | "based_on">;
  label: string;
  multiline?: boolean;
  required?: boolean;
  type?: string;
  /** Read with the field (aria-describedby), under it. */
  hint?: string;
}[] = [
  { name: "name", label: "Name", required: true },
  { name: "headline", label: "Headline" },
  // The API's `location` is JSON Resume's `basics.location.address`: the line before the city, not a place of its own.
  { name: "location", label: "Street address" },
  { name: "city", label: "City" },
  { name: "region", label: "Region" },
  { name: "postal_code", label: "Postal code" },
  { name: "country_code", label: "Country code" },
  { name: "email", label: "Email", type: "email" },
  { name: "phone", label: "Phone", type: "tel" },
  {
    name: "language",
    label: "Resume language",
    type: "text",
    hint: "A language tag: en, de, pt-BR… Left empty: found from the text where its script tells (Hebrew, Japanese, Korean…), else English.",
  },
  { name: "summary", label: "Summary", multiline: true },
  { name: "goals_summary", label: "Goals summary", multiline: true },
];

function valuesOf(profile: Profile | null): ProfileValues {
  const links = Object.entries(profile?.links ?? {}).map(([name, url]) => ({ name, url }));
  return {
    name: profile?.name ?? "",
    headline: profile?.headline ?? "",
    summary: profile?.summary ?? "",
    location: profile?.location ?? "",
    city: profile?.city ?? "",
    region: profile?.region ?? "",
    postal_code: profile?.postal_code ?? "",
    country_code: profile?.country_code ?? "",
    email: profile?.email ?? "",
    phone: profile?.phone ?? "",
    goals_summary: profile?.goals_summary ?? "",
    language: profile?.language ?? "",
    links,
    based_on: profile?.updated_at ?? null,
  };
}

/** The request body the form's values stand for. */
function inputOf(values: ProfileValues) {
  return {
    ...Object.fromEntries(
      TEXT_FIELDS.map((f) => [f.name, values[f.name] === "" && !f.required ? null : values[f.name]]),
    ),
    links: Object.fromEntries(values.links.filter((l) => l.name || l.url).map((l) => [l.name, l.url])),
  };
}

/**
 * Link names given to more than one row, as the API says it (once trimmed: the
 * API's own rule): sent as an object, the rows would be one link, the others lost.
 */
function repeatedLinks(values: ProfileValues): Record<string, string> {
  const repeated = repeatedLinkName(values);
  return repeated === undefined ? {} : { links: `"${repeated}" appears twice` };
}

/** The first link name given to more than one row, once trimmed. */
function repeatedLinkName({ links }: ProfileValues): string | undefined {
  const names = links.map((link) => link.name.trim()).filter(Boolean);
  return names.find((name, i) => names.indexOf(name) !== i);
}

/** A URL every link takes: beside it, a link is refused only for its name. */
const ANY_URL = "https://example.com/";

/**
 * The link names the schema refuses, whatever their URLs: empty, too long,
 * `__proto__`, one repeated once trimmed. A refused name and a refused URL
 * are both told at `links.<name>` (zod puts a record key's issue at the key,
 * and the server's `issues` say only that path), so the rows are checked again
 * with their names alone to tell which of the two fields a message is about.
 */
function refusedLinkNames({ links }: ProfileValues): Set<string> {
  const named = links.filter((l) => l.name || l.url).map((l) => [l.name, ANY_URL]);
  const checked = profileFields.shape.links.safeParse(Object.fromEntries(named));
  return new Set(checked.error?.issues.filter((i) => i.path.length > 0).map((i) => String(i.path[0])));
}

interface Props {
  profile: Profile | null;
  /** The saved profile changed: saved here, or found changed by another tab or app. */
  onChanged(): void;
}

export function ProfileForm({ profile, onChanged }: Props) {
  const { userId } = useEditorSession();
  const [values, setValues, clearDraft] = useSessionDraft(`draft:${userId}:profile`, () => valuesOf(profile));
  const { errors, failure, saving, save, reset } = useValidatedSave();
  const [status, setStatus] = useConfirmation();
  /** The profile another tab or app saved over the one this form was opened from (after a refused save). */
  const [theirs, setTheirs] = useState<Profile | null | undefined>(undefined);
  const formRef = useRef<HTMLFormElement>(null);
  const addLinkRef = useRef<HTMLButtonElement>(null);
  /** The link row whose name takes the focus once rows were added or removed; Add link when it is gone. */
  const focusLinkRow = useRef<number | null>(null);

  useEffect(() => {
    const row = focusLinkRow.current;
    if (row === null) return;
    focusLinkRow.current = null;
    (document.getElementById(`link-name-${row}`) ?? addLinkRef.current)?.focus();
  }, [values.links.length]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = inputOf(values);
    setStatus("");
    // A draft kept from before drafts held their version goes over the version shown, as it did then.
    const version = values.based_on === undefined ? (profile?.updated_at ?? null) : values.based_on;
    let saved: Profile | undefined;
    const write = async () => {
      saved = await api.profile.put.mutate(input, { context: onlyOver(version) });
    };
    const outcome = await save(profileFields, input, write, {
      form: formRef.current,
      refused: repeatedLinks(values),
    });
    if (outcome === "saved") {
      keepSaved(saved!);
    } else if (outcome === "changed") {
      const current = await api.profile.get
        .query()
        .catch((error: unknown) => (isNotFound(error) ? null : undefined));
      // What is there now is what this save wrote (a save sent again after its answer was lost), or
      // another tab saved the same: nothing of the person's is lost by calling it saved.
      if (current && sameInput(profileFields, inputOf(valuesOf(current)), input)) {
        reset();
        return keepSaved(current);
      }
      // Saving again goes over the profile there is now: the person has been told, and chooses.
      if (current !== undefined) {
        setTheirs(current);
        setValues((typed) => ({ ...typed, based_on: current?.updated_at ?? null }));
      }
      onChanged();
    }
  }

  /** The form goes on from `saved`, the profile as the service now has it. */
  function keepSaved(saved: Profile) {
    const based_on = saved.updated_at;
    // The language as the service wrote it (`de-at` is `de-AT`), unless typed over meanwhile.
    const language = saved.language ?? "";
    // What was typed while the save was under way stays, as a draft over the version saved.
    setValues((current) => ({
      ...current,
      based_on,
      ...(current.language === values.language ? { language } : {}),
    }));
    clearDraft({ ...values, language, based_on });
    setTheirs(undefined);
    setStatus("Profile saved.");
    onChanged();
  }

  /** Drops what was typed for the profile the other tab or app saved. */
  function keepTheirs() {
    const saved = valuesOf(theirs ?? null);
    setValues(saved);
    clearDraft(saved);
    setTheirs(undefined);
    reset();
    setStatus("Your changes were discarded: the form shows the saved profile.");
  }

  const error = (name: string) =>
    errors[name] ? (
      <p id={`profile-${name}-error`} className="field-error">
        {errors[name]}
      </p>
    ) : null;
  const aria = (name: string, hinted = false) => {
    const describedBy = [hinted && `profile-${name}-hint`, errors[name] && `profile-${name}-error`].filter(
      Boolean,
    );
    return {
      ...(errors[name] ? { "aria-invalid": true } : {}),
      ...(describedBy.length > 0 ? { "aria-describedby": describedBy.join(" ") } : {}),
    };
  };
  const refusedNames = refusedLinkNames(values);

  return (
    <section className="card" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <form ref={formRef} onSubmit={submit} noValidate>
        <div className="grid">
          {TEXT_FIELDS.filter((f) => !f.multiline).map((f) => (
            <div key={f.name}>
              <label htmlFor={`profile-${f.name}`} className={f.required ? "required" : undefined}>
                {f.label}
              </label>
              {f.type ? (
                <input
                  id={`profile-${f.name}`}
                  type={f.type}
                  value={values[f.name]}
                  {...aria(f.name, Boolean(f.hint))}
                  onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
                />
              ) : (
                <LineKeepingInput
                  id={`profile-${f.name}`}
                  value={values[f.name]}
                  {...aria(f.name)}
                  aria-required={f.required || undefined}
                  onChange={(text) => setValues({ ...values, [f.name]: text })}
                />
              )}
              {f.hint && (
                <p id={`profile-${f.name}-hint`} className="field-hint">
                  {f.hint}
                </p>
              )}
              {error(f.name)}
            </div>
          ))}
        </div>
        {TEXT_FIELDS.filter((f) => f.multiline).map((f) => (
          <div key={f.name}>
            <label htmlFor={`profile-${f.name}`}>{f.label}</label>
            <textarea
              id={`profile-${f.name}`}
              value={values[f.name]}
              {...aria(f.name)}
              onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
            />
            {error(f.name)}
          </div>
        ))}
        <fieldset>
          <legend>Links</legend>
          {values.links.map((link, i) => {
            const linkError = errors[`links.${link.name}`];
            const nameError = linkError && refusedNames.has(link.name) ? linkError : undefined;
            const urlError = nameError ? undefined : linkError;
            // The rows of a repeated name are the fields refused: the first takes the focus.
            const repeated = Boolean(errors.links) && link.name.trim() === repeatedLinkName(values);
            // A repeat is told once, by the message under the links, not again at its row.
            const ownNameError = repeated && nameError === errors.links ? undefined : nameError;
            const nameDescribedBy = [
              repeated && "profile-links-error",
              ownNameError && `link-name-${i}-error`,
            ].filter(Boolean);
            const setLink = (patch: Partial<typeof link>) =>
              setValues({ ...values, links: values.links.map((l, j) => (j === i ? { ...l, ...patch } : l)) });
            return (
              <div key={i}>
                <div className="row">
                  <label className="visually-hidden" htmlFor={`link-name-${i}`}>{`Link ${i + 1} name`}</label>
                  <input
                    id={`link-name-${i}`}
                    placeholder="github"
                    value={link.name}
                    aria-invalid={repeated || nameError ? true : undefined}
                    aria-describedby={nameDescribedBy.length > 0 ? nameDescribedBy.join(" ") : undefined}
                    onChange={(e) => setLink({ name: e.target.value })}
                  />
                  <label className="visually-hidden" htmlFor={`link-url-${i}`}>{`Link ${i + 1} URL`}</label>
                  <input
                    id={`link-url-${i}`}
                    type="url"
                    placeholder="https://…"
                    value={link.url}
                    aria-invalid={urlError ? true : undefined}
                    aria-describedby={urlError ? `link-url-${i}-error` : undefined}
                    onChange={(e) => setLink({ url: e.target.value })}
                  />
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Remove link ${i + 1}`}
                    onClick={() => {
                      // The next row takes the focus, else the one before, else Add link.
                      focusLinkRow.current = Math.min(i, values.links.length - 2);
                      setValues({ ...values, links: values.links.filter((_, j) => j !== i) });
                    }}
                  >
                    ✕
                  </button>
                </div>
                {ownNameError && (
                  <p id={`link-name-${i}-error`} className="field-error">
                    {ownNameError}
                  </p>
                )}
                {urlError && (
                  <p id={`link-url-${i}-error`} className="field-error">
                    {urlError}
                  </p>
                )}
              </div>
            );
          })}
          {error("links")}
          <button
            ref={addLinkRef}
            type="button"
            className="secondary"
            onClick={() => {
              focusLinkRow.current = values.links.length;
              setValues({ ...values, links: [...values.links, { name: "", url: "" }] });
            }}
          >
            Add link
          </button>
        </fieldset>
        {failure && (
          <p className="form-error" role="alert">
            {failure.message}
            {failure.kind === "changed" &&
              " Save again to replace that version with yours, or discard your changes to keep it."}
          </p>
        )}
        <div className="actions">
          <button type="submit" aria-disabled={saving || undefined}>
            Save profile
          </button>
          {failure?.kind === "changed" && theirs !== undefined && (
            <button type="button" className="secondary" onClick={keepTheirs}>
              Discard my changes
            </button>
          )}
          <span className="status" role="status">
            {status}
          </span>
        </div>
      </form>
    </section>
  );
}
