import type { Answer } from "@app/rest";

interface Kept {
  version: string;
  answer: Answer & { body: Buffer };
  /** Given back since it was kept or last passed over by an eviction. */
  used: boolean;
}

/**
 * Answers kept under a key with the version of the data they were built from,
 * given back only for that same version. Once the bodies pass `maxBytes`
 * together, answers not used lately go: the oldest, unless it was used since it
 * was last passed over (then it goes to the back). An approximation of least
 * recently used that changes nothing in the map on a hit (re-inserting on every
 * hit made GC keep a chain of the map's replaced tables alive: see
 * TrackedSocket in @app/service).
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
      entry.used = true;
      return entry.answer;
    },

    set(key: string, version: string, answer: Answer) {
      forget(key);
      const body = Buffer.from(answer.body);
      if (body.length > maxBytes) return;
      kept.set(key, { version, answer: { ...answer, body }, used: false });
      bytes += body.length;
      // Map order is insertion order: the first is the one kept (or passed over) longest ago.
      for (const [oldest, entry] of kept) {
        if (bytes <= maxBytes) break;
        if (oldest === key) continue;
        kept.delete(oldest);
        if (entry.used) {
          entry.used = false;
          kept.set(oldest, entry);
        } else bytes -= entry.answer.body.length;
      }
    },
  };
}
