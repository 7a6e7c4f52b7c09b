"use client";
import { useEffect, useMemo, useRef, useState, type ChangeEvent } from "react";
import { namedFindings, repeatedMembers, roundedNumbers } from "@app/rest/json-text";
import { formatDocumentPath } from "@app/rest/paths";
import {
  COLLECTIONS,
  JSON_RESUME_SECTIONS,
  LIMITS,
  unshownPartsOf,
  type WholeResume,
} from "@app/resume/client";
import { SECTIONS } from "./field-specs.ts";
import { api } from "./trpc.ts";
import { useFailureHandler } from "./use-failure-handler.ts";

type ImportFormat = "jsonresume" | "json";
type Document = Record<string, unknown>;

/** The service's own whole-resume JSON has these; a JSON Resume document has none of them at its top. */
const JSON_RESUME_ROOTS = new Set<string>(JSON_RESUME_SECTIONS.map((s) => s.section[0] as string));
const NATIVE_ONLY_KEYS = ["profile", ...COLLECTIONS.map((c) => c.name)].filter(
  (key) => !JSON_RESUME_ROOTS.has(key),
);

/** The import's body limit in words, as docs/resume-api.md gives it. */
const IMPORT_LIMIT = `${LIMITS.importBodyBytes / 1024 / 1024} MiB`;
/** A file's size in MiB, to one decimal place, rounded up: a file just over the limit never reads as at it. */
const mebibytes = (bytes: number) => `${Math.ceil((bytes / 1024 / 1024) * 10) / 10} MiB`;

const isObject = (value: unknown): value is Document =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const countOf = (list: unknown) => (Array.isArray(list) ? list.length : 0);

/** How many entries of each section `document` holds, read as `format`. */
function countsOf(document: Document, format: ImportFormat): Record<string, number> {
  if (format === "json") {
    return {
      profile: isObject(document.profile) ? 1 : 0,
      ...Object.fromEntries(COLLECTIONS.map((c) => [c.name, countOf(document[c.name])])),
    };
  }
  const at = (path: readonly (string | number)[]) =>
    path.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), document);
  return {
    profile: isObject(document.basics) ? 1 : 0,
    ...Object.fromEntries(JSON_RESUME_SECTIONS.map((s) => [s.collection, countOf(at(s.section))])),
  };
}

/**
 * What reading `text` as JSON would change without a word, as [path, message]:
 * a member given twice (the last one is kept), a number a double cannot hold
 * (it is rounded); the first 100, as the REST import names them. Through the
 * editor the file is read here and its text is not sent, so it is refused here.
 */
function changedByReading(text: string, parsed: Document): [string, string][] {
  const found: [string, string][] = [
    ...repeatedMembers(text, parsed).map(({ path }): [string, string] => [
      formatDocumentPath(path),
      "is given more than once: keep one",
    ]),
    ...roundedNumbers(text).map(({ path, sent, read }): [string, string] => [
      formatDocumentPath(path),
      `${sent} would be read as ${read}: write it with fewer digits, or as text in quotes`,
    ]),
  ];
  return namedFindings(
    found,
    (issue) => issue,
    (others): [string, string] => ["", `and ${others} more`],
  );
}

/**
 * Import of a whole resume from a file: what will be replaced, section by
 * section, then the replacement on confirmation (one request, all or
 * nothing). A refused file changes nothing and its errors are listed at their
 * paths. Loaded only when opened.
 */
export default function ImportResumePanel({
  resume,
  onImported,
  onClose,
}: {
  resume: WholeResume;
  onImported(): void;
  onClose(): void;
}) {
  const handleFailure = useFailureHandler();
  const [document, setDocument] = useState<Document | null>(null);
  const [format, setFormat] = useState<ImportFormat>("jsonresume");
  const [problem, setProblem] = useState("");
  const [issues, setIssues] = useState<[string, string][]>([]);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  /** The files chosen so far: a read that ends after a later choice is that of a file no longer chosen. */
  const choicesRef = useRef(0);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => fileRef.current?.focus(), []);

  /**
   * The resume's JSON Resume export: what an earlier JSON Resume import kept and the editor does not
   * show is in it, and an import of a resume.json, which cannot hold that, leaves it as it is.
   */
  const [exported, setExported] = useState<Document | null>(null);
  useEffect(() => {
    let current = true;
    api.resume.get
      .query({ format: "jsonresume" })
      .then((answer) => {
        if (current && isObject(answer)) setExported(answer);
      })
      // Unread, the list of what stays is left out; the import itself says what goes wrong.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [resume]);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    setProblem("");
    setIssues([]);
    setStatus("");
    setDocument(null);
    const choice = ++choicesRef.current;
    const file = event.target.files?.[0];
    if (!file) return;
    // The server refuses a body past the limit whatever it holds (REST too): said before it is read or sent.
    if (file.size > LIMITS.importBodyBytes) {
      setProblem(
        `${file.name} is ${mebibytes(file.size)}: an import takes a file of at most ${IMPORT_LIMIT}. ` +
          "Nothing was changed.",
      );
      event.target.value = "";
      return;
    }
    let text = "";
    let parsed: unknown = null;
    try {
      text = await file.text();
      parsed = JSON.parse(text);
    } catch {
      // Unreadable or not JSON: said below.
    }
    if (choice !== choicesRef.current) return;
    // A file refused is let go, so that choosing it again once fixed is a change the input reports.
    if (!isObject(parsed)) {
      setProblem(
        `${file.name} is not a JSON document: choose a JSON Resume file or a resume.json from here.`,
      );
      event.target.value = "";
      return;
    }
    const changed = changedByReading(text, parsed);
    if (changed.length > 0) {
      setProblem(`${file.name} would not be read as it is written. Fix these and choose it again:`);
      setIssues(changed);
      event.target.value = "";
      return;
    }
    setFormat(NATIVE_ONLY_KEYS.some((key) => key in parsed) && !("basics" in parsed) ? "json" : "jsonresume");
    setDocument(parsed);
  }

  async function replace() {
    if (!document) return;
    setBusy(true);
    setIssues([]);
    try {
      // What the editor does not show was told before the replace (unshownPartsOf).
      await api.resume.replace.mutate({ format, document });
      setDocument(null);
      if (fileRef.current) fileRef.current.value = "";
      setStatus("Imported.");
      // "Replace my resume", which had the focus, is disabled now: the panel's Close takes it.
      closeRef.current?.focus();
      onImported();
    } catch (error) {
      const failure = handleFailure(error);
      setIssues(Object.entries(failure.fieldErrors));
      setProblem(
        failure.kind === "invalid"
          ? "The file was refused; nothing was changed. Fix these and try again:"
          : failure.kind === "too-large"
            ? // Sent with the import's wrapping, a file just under the limit can still be over it.
              `The file is larger than an import takes (at most ${IMPORT_LIMIT} as sent), so nothing was ` +
              "changed. Make it smaller and try again."
            : failure.message,
      );
    } finally {
      setBusy(false);
    }
  }

  const current: Record<string, number> = {
    profile: resume.profile ? 1 : 0,
    ...Object.fromEntries(COLLECTIONS.map((c) => [c.name, resume[c.name].length])),
  };
  const incoming = document ? countsOf(document, format) : null;
  // The editor's own resume.json holds nothing it does not show.
  const unshown = useMemo(
    () => (document && format === "jsonresume" ? unshownPartsOf(document) : []),
    [document, format],
  );
  // A resume.json keeps what the resume holds beyond the editor's fields: told, so that no one takes
  // a restore for a way to drop it.
  const keptAsItIs = useMemo(
    () => (document && format === "json" && exported ? unshownPartsOf(exported) : []),
    [document, format, exported],
  );
  const rows = [["profile", "Profile"], ...COLLECTIONS.map((c) => [c.name, SECTIONS[c.name].title])] as const;

  return (
    <section className="card no-print" aria-labelledby="import-heading">
      <h2 id="import-heading">Import a resume</h2>
      <p className="status">
        A JSON Resume file (jsonresume.org) or a resume.json downloaded here. It replaces everything below.
      </p>
      <label htmlFor="import-file">Resume file</label>
      <input
        id="import-file"
        ref={fileRef}
        type="file"
        accept="application/json,.json"
        onChange={(e) => void choose(e)}
      />
      {document && incoming && (
        <>
          <label htmlFor="import-format">Format</label>
          <select
            id="import-format"
            value={format}
            onChange={(e) => setFormat(e.target.value as ImportFormat)}
          >
            <option value="jsonresume">JSON Resume</option>
            <option value="json">This editor&apos;s resume.json</option>
          </select>
          <table className="import-summary">
            <caption>What will be replaced</caption>
            <thead>
              <tr>
                <th scope="col">Section</th>
                <th scope="col">Now</th>
                <th scope="col">After the import</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([key, title]) => (
                <tr key={key}>
                  <th scope="row">{title}</th>
                  <td>{current[key]}</td>
                  <td>{incoming[key]}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {unshown.length > 0 && (
            <>
              <p id="import-unshown-heading" className="import-unshown-heading">
                Kept with your resume and written back when you export JSON Resume, but not shown or edited
                here, and left out of the PDF, Word and text files and the themed pages:
              </p>
              <ul className="import-unshown" aria-labelledby="import-unshown-heading">
                {unshown.map((part, i) => (
                  <li key={`${i}:${part}`}>{part}</li>
                ))}
              </ul>
            </>
          )}
          {keptAsItIs.length > 0 && (
            <>
              <p id="import-kept-heading" className="import-unshown-heading">
                Kept from your earlier JSON Resume import, as this file cannot hold them (a part of an entry
                goes with its entry if the file leaves that entry out); still not shown here, and written back
                when you export JSON Resume. To drop them, import a JSON Resume file without them:
              </p>
              <ul className="import-unshown" aria-labelledby="import-kept-heading">
                {keptAsItIs.map((part, i) => (
                  <li key={`${i}:${part}`}>{part}</li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {problem && (
        <div role="alert">
          <p className="form-error">{problem}</p>
          {issues.length > 0 && (
            <ul className="field-error">
              {issues.map(([path, message], i) => (
                <li key={`${i}:${path}`}>
                  <code>{path || "(the file)"}</code>: {message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="actions">
        <button type="button" disabled={!document || busy} onClick={() => void replace()}>
          Replace my resume
        </button>
        <button ref={closeRef} type="button" className="secondary" onClick={onClose}>
          {status ? "Close" : "Cancel"}
        </button>
      </div>
      <p className="status" role="status" aria-live="polite">
        {status}
      </p>
    </section>
  );
}
