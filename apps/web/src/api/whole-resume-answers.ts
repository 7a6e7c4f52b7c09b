import { batchCalls, withTimeout, type Database } from "@app/db";
import type { Answer } from "@app/rest";
import { readResumeVersions } from "@app/resume";
import { createAnswerCache } from "./answer-cache";

/** How long a request waits for its resume version before the database counts as unavailable. */
const VERSION_TIMEOUT_MS = 1_000;

export interface WholeResumeAnswers {
  /**
   * The caller's resume version, read from the database after the request
   * arrived (so a write acknowledged by any server is never missed), and the
   * answer kept for exactly that version and format list, if any. The version
   * is null for someone who has none yet: nothing is kept for them.
   */
  lookup(userId: string, formats: string[]): Promise<{ version: string | null; kept: Answer | undefined }>;
  /** Keeps an answer built after `version` was read (so from it or a newer one). */
  keep(userId: string, formats: string[], version: string, answer: Answer): void;
}

/**
 * GET /me/resume answered again from memory while the caller's resume is
 * unchanged: building it costs PostgreSQL about a millisecond of JSON and this
 * server more to check and serialise it. Concurrent requests share one
 * version query (batchCalls). Answers are kept per person and format list:
 * other query parameters (cache busters) neither miss nor fill the cache.
 */
export function createWholeResumeAnswers({
  db,
  maxBytes,
}: {
  db: Database;
  maxBytes: number;
}): WholeResumeAnswers {
  const answers = createAnswerCache({ maxBytes });
  const versionOf = batchCalls((userIds: string[]) =>
    withTimeout(readResumeVersions(db, userIds), VERSION_TIMEOUT_MS),
  );
  const keyOf = (userId: string, formats: string[]) => JSON.stringify([userId, formats]);

  return {
    async lookup(userId, formats) {
      const version = await versionOf(userId);
      return { version, kept: version === null ? undefined : answers.get(keyOf(userId, formats), version) };
    },
    keep(userId, formats, version, answer) {
      answers.set(keyOf(userId, formats), version, answer);
    },
  };
}
