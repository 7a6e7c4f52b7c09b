/**
 * A worker thread of document-workers.ts: makes one document (or Markdown,
 * or themed page) per message, so that a PDF's hundred milliseconds of layout
 * never hold up the server's other requests.
 */
import { parentPort } from "node:worker_threads";
import { renderResumeDocument } from "@app/resume/documents";
import type { DocumentJob, DocumentWorkerMessage } from "./document-workers.ts";

parentPort!.on("message", async ({ resume, format, paper, theme }: DocumentJob) => {
  let result: DocumentWorkerMessage;
  try {
    result = { document: await renderResumeDocument(resume, format, paper, theme) };
  } catch (error) {
    result = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(result);
});

// Loaded: jobs may come (their time counts from here, not from the thread's start).
parentPort!.postMessage({ ready: true } satisfies DocumentWorkerMessage);
