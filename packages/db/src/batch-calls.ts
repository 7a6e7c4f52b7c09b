interface Batch<K, V> {
  keys: Set<K>;
  result: Promise<Map<K, V>>;
  settle: { resolve(map: Map<K, V>): void; reject(error: unknown): void };
}

/**
 * Coalesces concurrent calls into one call of `run` with all their keys (it
 * must answer every key it is given); one call of `run` at a time. A caller is
 * never answered by a call that was already under way when it asked: it joins
 * the next call, made once the current one ends. So a read answers with the
 * state at some moment after the caller asked (resume versions: every write
 * acknowledged before the request arrived), and a burst of requests costs
 * about two statements, not one each (ledger posts: one statement and one
 * commit for all the posts that arrived while the last one ran).
 */
export function batchCalls<K, V>(run: (keys: K[]) => Promise<Map<K, V>>): (key: K) => Promise<V> {
  let waiting: Batch<K, V> | null = null;
  let running = false;

  function runWaiting() {
    const batch = waiting;
    running = batch !== null;
    if (!batch) return;
    waiting = null;
    Promise.resolve()
      .then(() => run([...batch.keys]))
      .then(batch.settle.resolve, batch.settle.reject)
      .finally(runWaiting);
  }

  return async (key) => {
    if (!waiting) {
      let settle!: Batch<K, V>["settle"];
      const result = new Promise<Map<K, V>>((resolve, reject) => (settle = { resolve, reject }));
      waiting = { keys: new Set(), result, settle };
    }
    waiting.keys.add(key);
    const { result } = waiting;
    if (!running) runWaiting();
    return (await result).get(key)!;
  };
}
