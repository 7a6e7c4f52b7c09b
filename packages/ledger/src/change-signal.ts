import type { ChangeSignal } from "./store/events.ts";

/**
 * How often a waiting GET /events looks again without being told of a change
 * (LEDGER_EVENTS_POLL_MS): writes by raw SQL and by servers without LISTEN
 * notify nobody, and an event of a commit only becomes readable once every
 * older transaction has ended (store/events.ts).
 */
export const EVENTS_POLL_MS = 250;

/** The NOTIFY channel on which instances tell each other of a write. */
export const EVENTS_CHANNEL = "ledger_events";

export type ChangeSignalControl = ChangeSignal & { changed(): void; endWaits(): void; stop(): void };

/**
 * The long polls' shared signal: `changed()` (a notification from any
 * instance) wakes every wait at once; a wait also ends after
 * EVENTS_POLL_MS. A shutdown ends the waits under way when its drain begins
 * (`endWaits()`: their readers go on elsewhere), and every wait for good
 * when the listener closes (`stop()`); a wait begun during the drain waits
 * as any, so that a reader sent back here does not ask again and again.
 */
export function createChangeSignal(pollMs = EVENTS_POLL_MS): ChangeSignalControl {
  const waiting = new Set<() => void>();
  let stopped = false;
  let endings = 0;
  const wakeAll = () => {
    for (const wake of [...waiting]) wake();
  };
  return {
    get stopped() {
      return stopped;
    },
    get endings() {
      return endings;
    },
    next(ms) {
      if (stopped) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(wake, Math.max(0, Math.min(ms, pollMs)));
        function wake() {
          clearTimeout(timer);
          waiting.delete(wake);
          resolve();
        }
        waiting.add(wake);
      });
    },
    changed: wakeAll,
    endWaits() {
      endings += 1;
      wakeAll();
    },
    stop() {
      stopped = true;
      wakeAll();
    },
  };
}
