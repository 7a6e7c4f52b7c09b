"use client";
import { useEffect, useRef, useState, type FormEvent } from "react";
import {
  COLLECTIONS,
  tailoredVersionFields,
  THEME_NAMES,
  type CollectionName,
  type TailoredVersion,
  type ThemeName,
  type VersionInclude,
  type WholeResume,
} from "@app/resume/client";
import { downloadFile } from "./download-file.ts";
import { useEditorSession } from "./editor-session.tsx";
import { LineKeepingInput } from "./line-keeping-input.tsx";
import { SECTIONS } from "./field-specs.ts";
import { sameInput } from "./form-values.ts";
import { ShareLinksList } from "./share-links-list.tsx";
import { ThemePreview } from "./theme-preview.tsx";
import { api, onlyOver } from "./trpc.ts";
import { useFailureHandler } from "./use-failure-handler.ts";
import { useSessionDraft } from "./use-session-draft.ts";
import { versionDraftPrefix } from "./version-draft-prefix.ts";
import { useValidatedSave } from "./use-validated-save.ts";

/** What a save of a version sends: every field (PUT replaces the whole version). */
type VersionFields = Pick<
  TailoredVersion,
  "name" | "headline" | "summary" | "theme" | "hide_email" | "include"
>;

/**
 * What the form holds: the fields as typed, and the version (`updated_at`) the
 * form was opened from, over which alone its save goes (onlyOver).
 */
type Draft = VersionFields & { based_on: string };

const fieldsOf = ({ name, headline, summary, theme, hide_email, include }: VersionFields): VersionFields => ({
  name,
  headline,
  summary,
  theme,
  hide_email,
  include,
});

const FILES = [
  { label: "PDF (A4)", query: "format=pdf&paper=a4", fileName: "resume.pdf" },
  { label: "PDF (US Letter)", query: "format=pdf&paper=letter", fileName: "resume.pdf" },
  { label: "Word", query: "format=docx", fileName: "resume.docx" },
] as const;

/**
 * The lists without the entries deleted since they were read (in a section
 * here, or by an import): the API refuses an id that is no entry, and the
 * editor lists only entries there are, so none could be unticked.
 */
function includeOfResume(include: VersionInclude, resume: WholeResume): VersionInclude {
  return Object.fromEntries(
    COLLECTIONS.map(({ name }) => {
      const choice = include[name];
      if (choice === "all") return [name, choice];
      const present = new Set(resume[name].map((entry) => entry.id));
      return [name, choice.filter((entryId) => present.has(entryId))];
    }),
  ) as VersionInclude;
}

/**
 * A version's fields with its lists as sets (entries show in their
 * collection's order whatever the list's), so that what is there now can be
 * told from what a save sent (sameInput reads both as the service keeps them).
 */
function keptFields(fields: VersionFields): VersionFields {
  const include = Object.fromEntries(
    COLLECTIONS.map(({ name }) => {
      const choice = fields.include[name];
      return [name, choice === "all" ? choice : [...new Set(choice.map((id) => id.toLowerCase()))].sort()];
    }),
  ) as VersionInclude;
  return { ...fieldsOf(fields), include };
}

/**
 * Whether the draft says what the version saved says, of the entries there
 * are now: the version's page and files are made from what is saved, so only
 * then do they show what the form shows.
 */
function sameAsSaved(draft: Draft, version: TailoredVersion, resume: WholeResume): boolean {
  const kept = (fields: VersionFields) =>
    keptFields({ ...fields, include: includeOfResume(fields.include, resume) });
  return sameInput(tailoredVersionFields, kept(fieldsOf(draft)), kept(fieldsOf(version)));
}

/**
 * One version opened for editing: its name, headline, theme and email, the
 * entries it shows (each section "all", entries added later too, or those
 * ticked), a preview of its page, its files and its share links.
 */
export function VersionEditor({
  version,
  resume,
  onSaved,
  onChangedElsewhere,
  onDeletedElsewhere,
  onMadeAgain,
  onClose,
  deleted = false,
}: {
  version: TailoredVersion;
  resume: WholeResume;
  onSaved(saved: TailoredVersion): void;
  /** The version was found changed by another tab or app (a save refused): the panel shows it anew. */
  onChangedElsewhere(): void;
  /**
   * The version was found deleted by another tab or app: the panel keeps this
   * editor open, now with `deleted`, while it lists the others anew.
   */
  onDeletedElsewhere(): void;
  /** The version deleted elsewhere was made anew from the draft, as `made`. */
  onMadeAgain(made: TailoredVersion): void;
  onClose(): void;
  /** The version was deleted elsewhere since the editor opened: saving makes it anew, with what was typed. */
  deleted?: boolean;
}) {
  const { markExpired, userId } = useEditorSession();
  const handleFailure = useFailureHandler();
  // Kept in sessionStorage until saved or closed, as the forms' drafts are: a reload or a sign-in loses none of it.
  const [draft, setDraft, clearDraft] = useSessionDraft<Draft>(
    `${versionDraftPrefix(userId)}${version.id}`,
    () => ({
      ...fieldsOf(version),
      based_on: version.updated_at,
    }),
  );
  const { errors: fieldErrors, failure, saving, save: validatedSave, reset } = useValidatedSave();
  const [status, setStatus] = useState("");
  /** How often Preview was pressed: once it was, the page follows the version and the resume. */
  const [previewRequests, setPreviewRequests] = useState(0);
  /** The page as the service made it, and of which save of the version. */
  const [preview, setPreview] = useState<{ html: string; of: string } | null>(null);
  const previewFrame = useRef<HTMLIFrameElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const id = version.id;

  useEffect(() => nameRef.current?.focus(), []);

  // Made again after every save and every change to the resume (an entry edited in its section), so
  // that it never shows what is no longer there.
  const savedAt = version.updated_at;
  useEffect(() => {
    if (previewRequests === 0 || deleted) return;
    let current = true;
    api.versions.resume
      .query({ id, format: "html" })
      .then((html) => {
        if (current && typeof html === "string") setPreview({ html, of: savedAt });
      })
      .catch((error: unknown) => {
        if (!current) return;
        const failure = handleFailure(error);
        if (failure.kind === "gone") onDeletedElsewhere();
        else setStatus(failure.message);
      });
    return () => {
      current = false;
    };
    // Not onDeletedElsewhere: the panel's closure is new at every render, and the page depends on none of it.
  }, [previewRequests, deleted, id, savedAt, resume, handleFailure]);

  // The page and the files are the version as saved: while the form says otherwise, they would show
  // another resume than the one on screen (an entry unticked and still there), so they wait for the save.
  const unsaved = !deleted && !sameAsSaved(draft, version, resume);
  const filesHintId = `version-files-hint-${id}`;

  const change = (fields: Partial<Draft>) => setDraft((current) => ({ ...current, ...fields }));

  function choose(collection: CollectionName, entryId: string, shown: boolean) {
    const choice = draft.include[collection];
    const ids = choice === "all" ? [] : choice;
    change({
      include: {
        ...draft.include,
        [collection]: shown ? [...ids, entryId] : ids.filter((other) => other !== entryId),
      },
    });
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setStatus("");
    const input = { ...fieldsOf(draft), include: includeOfResume(draft.include, resume) };
    let saved: TailoredVersion | undefined;
    const write = async () => {
      saved = deleted
        ? await api.versions.create.mutate(input)
        : await api.versions.replace.mutate({ id, ...input }, { context: onlyOver(draft.based_on) });
    };
    const outcome = await validatedSave(tailoredVersionFields, input, write, { form: formRef.current });
    if (outcome === "saved" && deleted) {
      clearDraft();
      onMadeAgain(saved!);
    } else if (outcome === "saved") {
      keepSaved(saved!);
    } else if (outcome === "gone") {
      onDeletedElsewhere();
    } else if (outcome === "changed") {
      const current = await api.versions.get.query({ id }).catch(() => null);
      // What is there now is what this save wrote (a save sent again after its answer was lost), or
      // another tab saved the same: nothing of the person's is lost by calling it saved.
      if (current && sameInput(tailoredVersionFields, keptFields(current), keptFields(input))) {
        reset();
        return keepSaved(current);
      }
      // Saving again goes over the version there is now: the person has been told, and chooses.
      if (current) setDraft((typed) => ({ ...typed, based_on: current.updated_at }));
      onChangedElsewhere();
    }
  }

  /** The form goes on from `saved`, the version as the service now has it. */
  function keepSaved(saved: TailoredVersion) {
    // What was typed while the save was under way stays, now over the version saved, and a draft.
    setDraft((typed) => ({ ...typed, based_on: saved.updated_at }));
    clearDraft({ ...draft, based_on: saved.updated_at });
    setStatus("Version saved.");
    onSaved(saved);
  }

  async function download(file: (typeof FILES)[number]) {
    setStatus(`Preparing the ${file.label} file…`);
    const outcome = await downloadFile(`/me/versions/${id}/resume?${file.query}`, file.fileName);
    if ("signedOut" in outcome) {
      // Said here too: the live region the person is listening to must not go on saying "Preparing…".
      setStatus(
        `Your session has expired, so the ${file.label} file was not downloaded. Sign in again, then download it.`,
      );
      return markExpired();
    }
    if ("problem" in outcome && outcome.status === 404) {
      setStatus("");
      return onDeletedElsewhere();
    }
    setStatus("problem" in outcome ? outcome.problem : (outcome.notice ?? `${file.label} file downloaded.`));
  }

  const headingId = `version-heading-${id}`;
  /** A field's attributes; `hinted`: it has a hint (hintOf), which is read with it, as its error is. */
  const field = (name: keyof Draft, hinted = false) => {
    const describedBy = [
      hinted && `version-${name}-${id}-hint`,
      fieldErrors[name] && `version-${name}-${id}-error`,
    ]
      .filter(Boolean)
      .join(" ");
    return {
      id: `version-${name}-${id}`,
      "aria-invalid": fieldErrors[name] ? true : undefined,
      "aria-describedby": describedBy || undefined,
    };
  };
  const hintOf = (name: keyof Draft, text: string) => (
    <p id={`version-${name}-${id}-hint`} className="field-hint">
      {text}
    </p>
  );
  const errorOf = (name: keyof Draft) =>
    fieldErrors[name] && (
      <p id={`version-${name}-${id}-error`} className="field-error">
        {fieldErrors[name]}
      </p>
    );

  return (
    <section className="entry-form" aria-labelledby={headingId} data-testid="version-editor">
      <h3 id={headingId}>Version “{version.name}”</h3>
      <form ref={formRef} aria-labelledby={headingId} onSubmit={(event) => void save(event)} noValidate>
        <div className="grid">
          <div>
            <label htmlFor={`version-name-${id}`} className="required">
              Version name
            </label>
            <input
              {...field("name")}
              ref={nameRef}
              value={draft.name}
              maxLength={100}
              required
              onChange={(event) => change({ name: event.target.value })}
            />
            {errorOf("name")}
          </div>
          <div>
            <label htmlFor={`version-theme-${id}`}>Theme</label>
            <select
              {...field("theme")}
              value={draft.theme ?? ""}
              onChange={(event) => change({ theme: (event.target.value || null) as ThemeName | null })}
            >
              <option value="">Default ({THEME_NAMES[0]})</option>
              {THEME_NAMES.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <label htmlFor={`version-headline-${id}`}>Headline</label>
        <LineKeepingInput
          {...field("headline", true)}
          value={draft.headline ?? ""}
          maxLength={200}
          onChange={(text) => change({ headline: text || null })}
        />
        {hintOf(
          "headline",
          resume.profile?.headline
            ? `Left empty: the profile’s headline, “${resume.profile.headline}”.`
            : "Left empty: the profile’s headline.",
        )}
        {errorOf("headline")}
        <label htmlFor={`version-summary-${id}`}>Summary</label>
        <textarea
          {...field("summary", true)}
          value={draft.summary ?? ""}
          rows={3}
          maxLength={5000}
          onChange={(event) => change({ summary: event.target.value || null })}
        />
        {hintOf("summary", "Left empty: the profile’s summary.")}
        {errorOf("summary")}
        <label className="inline">
          <input
            type="checkbox"
            checked={draft.hide_email}
            onChange={(event) => change({ hide_email: event.target.checked })}
          />
          Leave my email out
        </label>

        {/* Empty sections too: unticked, what is added to them later stays out of this version. */}
        {COLLECTIONS.map((c) => {
          const choice = draft.include[c.name];
          const title = SECTIONS[c.name].title;
          return (
            <fieldset className="plain" key={c.name}>
              <legend>{title}</legend>
              <label className="inline">
                <input
                  type="checkbox"
                  checked={choice === "all"}
                  onChange={(event) =>
                    change({
                      include: {
                        ...draft.include,
                        // Unticked, the list starts with every entry, so nothing disappears until unticked itself.
                        [c.name]: event.target.checked ? "all" : resume[c.name].map((entry) => entry.id),
                      },
                    })
                  }
                />
                All {title.toLowerCase()}, and what I add later
              </label>
              {choice !== "all" && resume[c.name].length === 0 && (
                <p className="field-hint">None yet; what you add later stays out of this version.</p>
              )}
              {choice !== "all" &&
                resume[c.name].map((entry) => (
                  <label className="inline" key={entry.id} style={{ marginLeft: "1.5rem" }}>
                    <input
                      type="checkbox"
                      checked={choice.includes(entry.id)}
                      onChange={(event) => choose(c.name, entry.id, event.target.checked)}
                    />
                    {(SECTIONS[c.name].summary as (e: typeof entry) => { title: string })(entry).title}
                  </label>
                ))}
            </fieldset>
          );
        })}
        {fieldErrors.include && <p className="field-error">{fieldErrors.include}</p>}
        {failure?.kind === "gone" ? (
          <p className="form-error" role="alert">
            This version was deleted in another tab or app after you opened it, so nothing was saved (its
            share links went with it). Create it again to keep what you typed, or Close.
          </p>
        ) : failure ? (
          <p className="form-error" role="alert">
            {failure.message}
            {failure.kind === "changed" &&
              " Save again to replace that version with yours, or Close to keep it."}
          </p>
        ) : (
          deleted && (
            <p className="form-error" role="alert">
              The version you were editing was deleted in another tab or app (its share links went with it).
              What you typed is in the form: create it again to keep it, or Close.
            </p>
          )
        )}
        <div className="actions">
          <button type="submit" aria-disabled={saving || undefined}>
            {deleted ? "Create version again" : "Save version"}
          </button>
          <button
            type="button"
            className="secondary"
            disabled={unsaved || deleted}
            aria-describedby={unsaved || deleted ? filesHintId : undefined}
            onClick={() => setPreviewRequests((requests) => requests + 1)}
          >
            Preview
          </button>
          {FILES.map((file) => (
            <button
              key={file.label}
              type="button"
              className="secondary"
              disabled={unsaved || deleted}
              aria-describedby={unsaved || deleted ? filesHintId : undefined}
              onClick={() => void download(file)}
            >
              Download {file.label}
            </button>
          ))}
          <button
            type="button"
            className="secondary"
            onClick={() => {
              clearDraft();
              onClose();
            }}
          >
            Close
          </button>
        </div>
        {(unsaved || deleted) && (
          <p className="field-hint" id={filesHintId}>
            {deleted
              ? "Create the version again to preview, download or share it."
              : "Save the version first to preview or download it."}
          </p>
        )}
        <p className="status" role="status" aria-live="polite">
          {status}
        </p>
      </form>
      {/* Only the page of this save: one of the save before would show what the form no longer says. */}
      {preview?.of === version.updated_at && !unsaved && !deleted && (
        <>
          {showsGoals(version, resume) && (
            <p className="notice">
              The page&rsquo;s theme has no place for goals: the PDF and Word files list this version&rsquo;s
              goals after its other sections.
            </p>
          )}
          <ThemePreview theme={version.theme ?? THEME_NAMES[0]} html={preview.html} ref={previewFrame} />
        </>
      )}
      {!deleted && <ShareLinksList versionId={id} versionName={version.name} />}
    </section>
  );
}

/** Whether the version's files carry a Goals section (its goals, or the profile's goals summary with "all"). */
function showsGoals(version: TailoredVersion, resume: WholeResume): boolean {
  const choice = version.include.goals;
  if (choice === "all") return resume.goals.length > 0 || Boolean(resume.profile?.goals_summary);
  return resume.goals.some((goal) => choice.includes(goal.id));
}
