import type { Database } from "@app/db";
import { recordExpiredHolds } from "./store/expired-holds.ts";

export interface ExpiredHoldsSweep {
  /** No sweep after this; resolves once the one under way (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Sweeps for expired holds every `everyMs` (recordExpiredHolds), one sweep
 * at a time, from a timer that does not keep the process alive. `onWritten`
 * hears of each sweep that wrote events (to wake the feed's waits);
 * `onError` of the first failure of a run of them (the database down, say:
 * one line, not one a second). The next sweep tries again, and what a failed
 * one missed is still there to write.
 */
export function sweepExpiredHolds(
  db: Database,
  { everyMs, onWritten, onError }: { everyMs: number; onWritten(): void; onError(error: unknown): void },
): ExpiredHoldsSweep {
  let running: Promise<void> | null = null;
  let failing = false;
  const sweep = async () => {
    try {
      if ((await recordExpiredHolds(db)) > 0) onWritten();
      failing = false;
    } catch (error) {
      if (!failing) onError(error);
      failing = true;
    }
  };
  const timer = setInterval(() => {
    running ??= sweep().finally(() => {
      running = null;
    });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
