import { Worker } from "node:worker_threads";
import type { RenderResumeDocument, ResumeDocument } from "@app/resume/documents";

type RenderArguments = Parameters<RenderResumeDocument>;

/**
 * A worker thread does not run the parent's `--import tsx`: it registers tsx
 * itself, then loads the TypeScript worker.
 */
const WORKER_BOOTSTRAP = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})
  .then(({ register }) => { register(); return import(${JSON.stringify(new URL("./document-worker.ts", import.meta.url).href)}); })`;

/** One document to make; a worker has at most one at a time. */
export interface DocumentJob {
  resume: RenderArguments[0];
  format: RenderArguments[1];
  paper: RenderArguments[2];
}

export type DocumentJobResult = { document: ResumeDocument } | { error: string };

export interface DocumentWorkers {
  render: RenderResumeDocument;
  close(): Promise<void>;
}

interface Pending {
  job: DocumentJob;
  resolve(document: ResumeDocument): void;
  reject(error: Error): void;
}

/**
 * `count` worker threads that make the PDF, Word and text documents
 * (document-worker.ts), jobs handed out first come, first served. A worker
 * that dies fails its job (a 500) and is replaced a second later.
 * Unreferenced: they never keep the process alive.
 */
export function createDocumentWorkers(count: number): DocumentWorkers {
  const queue: Pending[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Pending>();
  let closed = false;

  function start() {
    const worker = new Worker(WORKER_BOOTSTRAP, { eval: true });
    worker.unref();
    worker.on("message", (result: DocumentJobResult) => {
      const pending = busy.get(worker);
      busy.delete(worker);
      if (pending) {
        if ("error" in result) pending.reject(new Error(`making a document failed: ${result.error}`));
        else pending.resolve(asBuffers(result.document));
      }
      idle.push(worker);
      dispatch();
    });
    worker.on("error", (error) => {
      busy.get(worker)?.reject(error);
      busy.delete(worker);
    });
    worker.on("exit", () => {
      busy.get(worker)?.reject(new Error("a document worker stopped"));
      busy.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      // A second later: a worker that cannot start must not spin.
      if (!closed) setTimeout(start, 1_000).unref();
    });
    idle.push(worker);
    dispatch();
  }

  function dispatch() {
    while (idle.length && queue.length) {
      const worker = idle.shift()!;
      const pending = queue.shift()!;
      busy.set(worker, pending);
      worker.postMessage(pending.job);
    }
  }

  for (let i = 0; i < count; i += 1) start();

  return {
    render: (resume, format, paper) =>
      new Promise((resolve, reject) => {
        queue.push({ job: { resume, format, paper }, resolve, reject });
        dispatch();
      }),
    async close() {
      closed = true;
      await Promise.all([...idle, ...busy.keys()].map((worker) => worker.terminate()));
    },
  };
}

/** Bytes come back from a thread as a Uint8Array; the REST edge answers a Buffer's as they are. */
function asBuffers(document: ResumeDocument): ResumeDocument {
  const { body } = document;
  return typeof body === "string"
    ? document
    : { ...document, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
}
