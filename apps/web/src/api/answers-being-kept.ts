import { withTimeout } from "@app/db";

interface Keeping {
  keys: ReadonlySet<string>;
  ended: Promise<void>;
}

/**
 * The answers that writes under way will keep again (resume-api's
 * refreshAfterWrite), by answer-cache group and key. A read that finds its
 * answer gone or of another version while one of them is under way waits for
 * it, at most `maxWaitMs`, and looks again, instead of building the same
 * answer beside it: one build or change per write, not one per read that
 * came meanwhile.
 */
export function createAnswersBeingKept({ maxWaitMs }: { maxWaitMs: number }) {
  const byGroup = new Map<string, Set<Keeping>>();

  return {
    /** `keys` of `group` are to be kept again; the function given back says they are (or will not be). */
    begin(group: string, keys: readonly string[]): () => void {
      if (keys.length === 0) return () => {};
      let end!: () => void;
      const keeping: Keeping = {
        keys: new Set(keys),
        ended: new Promise<void>((resolve) => (end = resolve)),
      };
      let underWay = byGroup.get(group);
      if (!underWay) byGroup.set(group, (underWay = new Set()));
      underWay.add(keeping);
      return () => {
        end();
        underWay.delete(keeping);
        if (underWay.size === 0 && byGroup.get(group) === underWay) byGroup.delete(group);
      };
    },

    /** When every keeping of `key` under way now has ended, or `maxWaitMs` passed; undefined when none is. */
    ended(group: string, key: string): Promise<void> | undefined {
      const waits = [...(byGroup.get(group) ?? [])]
        .filter(({ keys }) => keys.has(key))
        .map(({ ended }) => ended);
      if (waits.length === 0) return undefined;
      // Past the bound the read goes on as if they had ended: it looks again, and builds if it must.
      return withTimeout(Promise.all(waits), maxWaitMs).then(
        () => undefined,
        () => undefined,
      );
    },
  };
}
