import type { Answer } from "@app/rest";

interface Kept {
  version: string;
  answer: Answer & { body: Buffer };
  /** Its group was forgotten since it was kept: never given back, and not counted as kept. */
  forgotten: boolean;
  /** Given back at least once since it was kept. */
  givenBack: boolean;
  /** What its keeper keeps it again from after a write (`givenBackSinceKept`): a few bytes, not counted. */
  source?: string;
}

/** An answer kept with its source, under its key (givenBackSinceKept). */
export type KeptAnswer = Pick<Kept, "version" | "answer"> & { key: string; source: string };

interface Group {
  answers: Map<string, Kept>;
  bytes: number;
  /** One of its answers was given back since it was kept or last passed over by an eviction. */
  used: boolean;
}

/**
 * Answers kept in groups (a person's, a share link's) under a key, with the
 * version of the data they were built from, given back only for that same
 * version. A group can be forgotten at once: a person's, when they write
 * through this server. Once the bodies pass `maxBytes` together, groups not
 * used lately go whole: the oldest, unless one of its answers was given back
 * since it was last passed over (then it goes to the back).
 *
 * An approximation of least recently used that changes no Map on a hit or a
 * forget: a Map that deletes and re-inserts on every request leaves a chain of
 * replaced tables that GC keeps alive (see TrackedSocket in @app/service).
 */
export function createAnswerCache({ maxBytes }: { maxBytes: number }) {
  const groups = new Map<string, Group>();
  let bytes = 0;

  function drop(group: Group, key: string) {
    const entry = group.answers.get(key);
    if (!entry) return;
    group.answers.delete(key);
    group.bytes -= entry.answer.body.length;
    bytes -= entry.answer.body.length;
  }

  /** Past `maxBytes`: whole groups not used lately, then the rest of `keeping`'s own answers. */
  function evictFor(keeping: string, key: string) {
    // Map order is insertion order: the first is the group kept (or passed over) longest ago.
    for (const [name, group] of groups) {
      if (bytes <= maxBytes) return;
      if (name === keeping) continue;
      groups.delete(name);
      if (group.used) {
        group.used = false;
        groups.set(name, group);
      } else bytes -= group.bytes;
    }
    const own = groups.get(keeping)!;
    for (const other of own.answers.keys()) {
      if (bytes <= maxBytes) return;
      if (other !== key) drop(own, other);
    }
  }

  return {
    get(group: string, key: string, version: string): Answer | undefined {
      const kept = groups.get(group);
      const entry = kept?.answers.get(key);
      if (!entry || entry.forgotten || entry.version !== version) return undefined;
      kept!.used = true;
      entry.givenBack = true;
      return entry.answer;
    },

    /** An answer is kept under `key` (of whatever version) and its group was not forgotten since. */
    holds(group: string, key: string): boolean {
      const entry = groups.get(group)?.answers.get(key);
      return entry !== undefined && !entry.forgotten;
    },

    set(group: string, key: string, version: string, answer: Answer, source?: string) {
      const body = Buffer.from(answer.body);
      let kept = groups.get(group);
      if (body.length > maxBytes) {
        if (kept) drop(kept, key);
        return;
      }
      if (!kept) groups.set(group, (kept = { answers: new Map(), bytes: 0, used: false }));
      const entry = kept.answers.get(key);
      const grown = body.length - (entry?.answer.body.length ?? 0);
      // Replaced in place: a rebuild after every write must not delete and re-insert either.
      const fresh = { version, answer: { ...answer, body }, forgotten: false, givenBack: false, source };
      if (entry) Object.assign(entry, fresh);
      else kept.answers.set(key, fresh);
      kept.bytes += grown;
      bytes += grown;
      evictFor(group, key);
    },

    /** The answers of `group` kept with a source and given back since: worth keeping again after a change. */
    givenBackSinceKept(group: string): KeptAnswer[] {
      const wanted: KeptAnswer[] = [];
      for (const [key, { forgotten, givenBack, source, version, answer }] of groups.get(group)?.answers ?? [])
        if (!forgotten && givenBack && source !== undefined) wanted.push({ key, source, version, answer });
      return wanted;
    },

    /** Never gives back an answer of `group` kept until now: the next request for each builds it anew. */
    forget(group: string) {
      for (const entry of groups.get(group)?.answers.values() ?? []) entry.forgotten = true;
    },
  };
}
