/** One caller's answer from a call: its value, or what the call (or its own retry) failed with. */
type Settled<V> = { value: V } | { error: unknown };

interface Batch<K, V> {
  keys: Set<K>;
  result: Promise<Map<K, Settled<V>>>;
  settle: { resolve(map: Map<K, Settled<V>>): void; reject(error: unknown): void };
}

export interface BatchCallsOptions {
  /**
   * Whether a failed call of several keys may be the fault of one of them (a
   * value the database cannot hold, say). Then each key is tried again alone,
   * one call after another, so one caller's input never fails another's. A
   * failure it says no to (an outage) fails every caller at once.
   */
  isolate?: (error: unknown) => boolean;
  /**
   * Lets a second call start while one runs, once this many keys wait for
   * it (never more than two at once). For a `run` whose calls queue behind
   * each other anyway (one pipelined connection): the next call is on its way
   * before the last one's answer comes back. Without it, one call at a time.
   */
  overlapFrom?: number;
}

/** Calls under way at once at most, with `overlapFrom`. */
const MAX_OVERLAPPING_CALLS = 2;

/**
 * Coalesces concurrent calls into one call of `run` with all their keys (it
 * must answer every key it is given); one call of `run` at a time, unless
 * `overlapFrom` lets a second start. A caller is never answered by a call
 * that was already under way when it asked: it joins the next call. So a
 * read answers with the state at some moment after the caller asked (resume
 * versions: every write acknowledged before the request arrived), and a burst
 * of requests costs about two statements, not one each (ledger posts: one
 * statement and one commit for all the posts that arrived while the last one
 * ran). The next call starts once the event loop has read what else arrived
 * meanwhile (setImmediate): requests read in the same turn as the last call's
 * answer join it instead of waiting for the one after (about a quarter fewer
 * resume version reads under load).
 */
export function batchCalls<K, V>(
  run: (keys: K[]) => Promise<Map<K, V>>,
  { isolate, overlapFrom }: BatchCallsOptions = {},
): (key: K) => Promise<V> {
  let waiting: Batch<K, V> | null = null;
  let underWay = 0;
  let nextDue = false;

  const settled = (keys: K[]): Promise<Map<K, Settled<V>>> =>
    Promise.resolve()
      .then(() => run(keys))
      .then((values) => new Map(keys.map((key) => [key, { value: values.get(key)! }])));

  async function runAlone(keys: K[]): Promise<Map<K, Settled<V>>> {
    const answers = new Map<K, Settled<V>>();
    for (const key of keys) {
      const answer = await settled([key]).catch((error: unknown) => new Map([[key, { error }]]));
      answers.set(key, answer.get(key)!);
    }
    return answers;
  }

  function runWaiting(batch: Batch<K, V>) {
    waiting = null;
    underWay++;
    const keys = [...batch.keys];
    settled(keys)
      .catch((error: unknown) => {
        if (keys.length > 1 && isolate?.(error)) return runAlone(keys);
        throw error;
      })
      .then(batch.settle.resolve, batch.settle.reject)
      .finally(() => {
        underWay--;
        startNextSoon();
      });
  }

  const mayOverlap = (batch: Batch<K, V>) =>
    overlapFrom !== undefined && underWay < MAX_OVERLAPPING_CALLS && batch.keys.size >= overlapFrom;

  /** At setImmediate: the waiting keys' call, when none is under way or it may overlap one. */
  function startNextSoon() {
    if (nextDue) return;
    nextDue = true;
    setImmediate(() => {
      nextDue = false;
      if (waiting && (underWay === 0 || mayOverlap(waiting))) runWaiting(waiting);
    });
  }

  return async (key) => {
    if (!waiting) {
      let settle!: Batch<K, V>["settle"];
      const result = new Promise<Map<K, Settled<V>>>((resolve, reject) => (settle = { resolve, reject }));
      waiting = { keys: new Set(), result, settle };
    }
    const batch = waiting;
    batch.keys.add(key);
    if (underWay === 0 && !nextDue) runWaiting(batch);
    else if (mayOverlap(batch)) startNextSoon();
    const answer = (await batch.result).get(key)!;
    if ("error" in answer) throw answer.error;
    return answer.value;
  };
}

/**
 * batchCalls with a batcher of its own per client (a Database), made on
 * first use: each client's calls coalesce apart, one call at a time each.
 */
export function batchCallsPerClient<C extends object, K, V>(
  run: (client: C, keys: K[]) => Promise<Map<K, V>>,
  options: BatchCallsOptions = {},
): (client: C, key: K) => Promise<V> {
  const batchers = new WeakMap<C, (key: K) => Promise<V>>();
  return (client, key) => {
    let batched = batchers.get(client);
    if (!batched) {
      batched = batchCalls((keys: K[]) => run(client, keys), options);
      batchers.set(client, batched);
    }
    return batched(key);
  };
}
