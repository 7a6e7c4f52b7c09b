import { Worker } from "node:worker_threads";
import { DomainError, serviceUnavailable } from "@app/rest/errors";
import { isPageFormat, type RenderResumeDocument, type ResumeDocument } from "@app/resume/documents";
import type { Logger } from "@app/service";

type RenderArguments = Parameters<RenderResumeDocument>;

/**
 * A thread that loads document-worker. The server runs bundled
 * (scripts/server-bundles.ts), and the worker's bundle is beside this one.
 * From the TypeScript (the tests, `node --import tsx`) a worker thread does
 * not run the parent's `--import tsx`: it registers tsx itself, then loads the
 * TypeScript worker.
 */
function startDocumentWorker(): Worker {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./document-worker.mjs", import.meta.url));
  const bootstrap = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})
  .then(({ register }) => { register(); return import(${JSON.stringify(new URL("./document-worker.ts", import.meta.url).href)}); })`;
  return new Worker(bootstrap, { eval: true });
}

/** Longer than any document within the length limit takes (about 2 s for the longest PDF). */
const RENDER_TIMEOUT_MS = 20_000;
/** Documents waiting for a worker, per worker, before more are refused (503). */
const QUEUED_PER_WORKER = 16;
/**
 * What one person may have made or waiting at once, before more of theirs is
 * refused (429): files (PDF, Word, text), and pages (Markdown, themed HTML),
 * counted apart. The editor asks for the Markdown and a themed page after
 * every save, two saves may be under way, and a download beside them must not
 * be refused.
 */
const PER_PERSON = { file: 2, page: 4 } as const;
type Kind = keyof typeof PER_PERSON;
const kindOf = (format: DocumentJob["format"]): Kind => (isPageFormat(format) ? "page" : "file");

/** One document to make; a worker has at most one at a time. */
export interface DocumentJob {
  resume: RenderArguments[0];
  format: RenderArguments[1];
  paper: RenderArguments[2];
  theme: RenderArguments[3];
}

/** What a worker says: that it is loaded, or how its job went. */
export type DocumentWorkerMessage = { ready: true } | { document: ResumeDocument } | { error: string };

export interface DocumentWorkers {
  /** Makes documents for one person: at most PER_PERSON of each kind of theirs at once. */
  renderFor(person: string): RenderResumeDocument;
  close(): Promise<void>;
}

interface Pending {
  job: DocumentJob;
  person: string;
  resolve(document: ResumeDocument): void;
  reject(error: Error): void;
}

/**
 * `count` worker threads that make the PDF, Word and text documents, the
 * Markdown and the themed pages (document-worker.ts), first come, first
 * served, so that a PDF's layout or a long resume's page never holds up the
 * server's other requests. What a person or everyone may
 * queue is bounded (429, 503); a document that takes longer than
 * RENDER_TIMEOUT_MS ends its worker (503). A worker that dies fails its job
 * and is replaced a second later. Unreferenced: they never keep the process alive.
 */
export function createDocumentWorkers(
  count: number,
  logger: Logger,
  { timeoutMs = RENDER_TIMEOUT_MS }: { timeoutMs?: number } = {},
): DocumentWorkers {
  const queue: Pending[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, { pending: Pending; timer: NodeJS.Timeout }>();
  const perPerson = new Map<string, number>();
  let closed = false;

  /** Ends a job, whichever way; its person may ask for another. */
  function settle(pending: Pending, outcome: { document: ResumeDocument } | { error: Error }) {
    const key = personKey(pending.person, kindOf(pending.job.format));
    const left = (perPerson.get(key) ?? 1) - 1;
    if (left > 0) perPerson.set(key, left);
    else perPerson.delete(key);
    if ("error" in outcome) pending.reject(outcome.error);
    else pending.resolve(outcome.document);
  }

  /** The job a worker was doing, taken off it (its timer stopped), if any. */
  function takeJob(worker: Worker): Pending | undefined {
    const running = busy.get(worker);
    if (!running) return undefined;
    busy.delete(worker);
    clearTimeout(running.timer);
    return running.pending;
  }

  /** The job of a worker that is no longer working, failed with `error`. */
  function failJobOf(worker: Worker, error: Error) {
    const pending = takeJob(worker);
    if (pending) settle(pending, { error });
  }

  function start() {
    const worker = startDocumentWorker();
    worker.unref();
    worker.on("message", (result: DocumentWorkerMessage) => {
      if ("ready" in result) {
        idle.push(worker);
        return dispatch();
      }
      const pending = takeJob(worker);
      if (!pending) return;
      settle(
        pending,
        "error" in result
          ? { error: new Error(`making a document failed: ${result.error}`) }
          : { document: asBuffers(result.document) },
      );
      idle.push(worker);
      dispatch();
    });
    worker.on("error", (error) => {
      logger.error({ err: error }, "a document worker failed");
      failJobOf(worker, error);
    });
    worker.on("exit", (code) => {
      failJobOf(worker, new Error(`a document worker stopped (exit code ${code})`));
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      if (closed) return;
      logger.warn({ code }, "a document worker stopped; another starts in a second");
      // A second later: a worker that cannot start must not spin.
      setTimeout(() => {
        if (!closed) start();
      }, 1_000).unref();
    });
  }

  function dispatch() {
    while (idle.length && queue.length) {
      const worker = idle.shift()!;
      const pending = queue.shift()!;
      const timer = setTimeout(() => {
        failJobOf(worker, serviceUnavailable("making the document took too long; try again shortly"));
        void worker.terminate();
      }, timeoutMs);
      busy.set(worker, { pending, timer });
      worker.postMessage(pending.job);
    }
  }

  for (let i = 0; i < count; i += 1) start();

  return {
    renderFor: (person) => (resume, format, paper, theme) =>
      new Promise((resolve, reject) => {
        if (closed) return reject(serviceUnavailable("the server is shutting down"));
        const kind = kindOf(format);
        const key = personKey(person, kind);
        if ((perPerson.get(key) ?? 0) >= PER_PERSON[kind]) {
          const what = kind === "file" ? "files (PDF, Word, text)" : "pages (Markdown, themed HTML)";
          return reject(
            new DomainError(429, `at most ${PER_PERSON[kind]} of a person's ${what} are made at once`, {
              headers: { "retry-after": "1" },
            }),
          );
        }
        if (queue.length >= QUEUED_PER_WORKER * count) {
          return reject(serviceUnavailable("the server is busy making documents; try again shortly"));
        }
        perPerson.set(key, (perPerson.get(key) ?? 0) + 1);
        queue.push({ job: { resume, format, paper, theme }, person, resolve, reject });
        dispatch();
      }),
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) {
        settle(pending, { error: serviceUnavailable("the server is shutting down") });
      }
      await Promise.all([...idle, ...busy.keys()].map((worker) => worker.terminate()));
    },
  };
}

/** Whose and which kind of jobs a count is of. */
const personKey = (person: string, kind: Kind) => `${kind}:${person}`;

/** Bytes come back from a thread as a Uint8Array; the REST edge answers a Buffer's as they are. */
function asBuffers(document: ResumeDocument): ResumeDocument {
  const { body } = document;
  return typeof body === "string"
    ? document
    : { ...document, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
}
