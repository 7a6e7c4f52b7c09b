import { writeSync } from "node:fs";

/** How long writeAllSync waits in all for a reader that takes nothing before it gives the rest up. */
const GIVE_UP_AFTER_MS = 10_000;

/**
 * Writes all of `text` to `fd` before it returns, as a process's last lines
 * must be (in an "exit" handler nothing asynchronous runs any more). stdout
 * read through a pipe or socket by a busy process is non-blocking: a write
 * there may take only part of the text, or nothing (EAGAIN), and a single
 * writeSync then lost the rest (lines missing at exit under load). Waits a
 * millisecond for the reader each time it takes nothing; gives up after
 * GIVE_UP_AFTER_MS, so that a reader that is gone for good cannot hold the
 * process's exit forever.
 */
export function writeAllSync(fd: number, text: string): void {
  let rest = Buffer.from(text);
  const giveUpAt = Date.now() + GIVE_UP_AFTER_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN" || Date.now() > giveUpAt) throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
