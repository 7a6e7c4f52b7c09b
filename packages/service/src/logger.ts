import { inspect } from "node:util";
import pino from "pino";
import { currentRequest } from "./request-context.ts";
import { writeAllSync } from "./write-all-sync.ts";

export type Logger = pino.Logger;

/**
 * JSON lines on stdout: `time`, `level`, `service`, `msg`, and the
 * `request_id` of the request whose context (runWithRequest) the line is
 * written in, if any, unless the line names one itself. Written in the
 * background in blocks of 4 KiB at least, or every quarter second (one write
 * per line cost the ledger about 4% of its posts); call `flush` before exit.
 * Callers log fields, never a token, a secret or a body.
 */
export function createLogger(
  service: string,
  {
    level = "info",
    destination = bufferedStdout(),
  }: { level?: string; destination?: pino.DestinationStream } = {},
): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: isoTimeOncePerMs,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const request = currentRequest();
        return request ? { request_id: request.id } : {};
      },
    },
    destination,
  );
}

let lastMs = 0;
let lastTime = "";
/** pino's isoTime, formatted once per millisecond: a busy server writes several lines in each. */
function isoTimeOncePerMs(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

/** Lines are handed to stdout's writer in blocks of this many characters at least. */
const BLOCK_CHARS = 4096;

/**
 * stdout, written in blocks: lines are gathered here and joined once per
 * block. pino's own writer (sonic-boom) gathers them too, with a `+=` per
 * line whose length it then measures, copying the whole pending block on every
 * line: that was half the cost of a request's log line and most of what it
 * allocated (docs/benchmarks.md, "Garbage collection under load").
 */
function bufferedStdout(): pino.DestinationStream & { flush(done?: (error?: Error) => void): void } {
  // Its own minLength too: sonic-boom's flush waits for its writes only with one.
  const stdout = pino.destination({ dest: 1, sync: false, minLength: BLOCK_CHARS });
  let lines: string[] = [];
  let chars = 0;
  const handOver = () => {
    if (lines.length === 0) return;
    stdout.write(lines.join(""));
    lines = [];
    chars = 0;
  };
  const flush = (done?: (error?: Error) => void) => {
    handOver();
    stdout.flush(done);
  };
  setInterval(flush, 250).unref();
  // After sonic-boom's own exit handler (registered when it was made), which writes what it holds.
  process.once("exit", () => {
    if (lines.length > 0) writeAllSync(1, lines.join(""));
  });
  return {
    write(line: string) {
      lines.push(line);
      chars += line.length;
      if (chars >= BLOCK_CHARS) handOver();
    },
    flush,
  };
}

/**
 * Sends what libraries print with console.* (Next.js says "✓ Ready") through
 * the logger, so that a server's stdout holds nothing but JSON lines.
 */
export function routeConsoleToLogger(logger: Logger): void {
  const line =
    (level: "info" | "warn" | "error") =>
    (...parts: unknown[]) =>
      logger[level](parts.map((p) => (typeof p === "string" ? p : inspect(p))).join(" "));
  console.log = line("info");
  console.info = line("info");
  console.warn = line("warn");
  console.error = line("error");
}
