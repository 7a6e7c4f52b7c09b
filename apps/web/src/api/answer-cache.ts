import type { Answer } from "@app/rest";

interface Kept {
  version: string;
  answer: Answer & { body: Buffer };
}

/**
 * Answers kept under a key with the version of the data they were built from,
 * given back only for that same version. Least recently used answers go first
 * once the bodies pass `maxBytes` together.
 */
export function createAnswerCache({ maxBytes }: { maxBytes: number }) {
  const kept = new Map<string, Kept>();
  let bytes = 0;

  function forget(key: string) {
    const entry = kept.get(key);
    if (!entry) return;
    kept.delete(key);
    bytes -= entry.answer.body.length;
  }

  return {
    get(key: string, version: string): Answer | undefined {
      const entry = kept.get(key);
      if (!entry || entry.version !== version) return undefined;
      // Map order is insertion order: re-inserting marks it most recently used.
      kept.delete(key);
      kept.set(key, entry);
      return entry.answer;
    },

    set(key: string, version: string, answer: Answer) {
      forget(key);
      const body = Buffer.from(answer.body);
      if (body.length > maxBytes) return;
      kept.set(key, { version, answer: { ...answer, body } });
      bytes += body.length;
      for (const oldest of kept.keys()) {
        if (bytes <= maxBytes) break;
        forget(oldest);
      }
    },
  };
}
