import { inspect } from "node:util";
import pino from "pino";
import { currentRequest } from "./request-context.ts";

export type Logger = pino.Logger;

/**
 * JSON lines on stdout: `time`, `level`, `service`, `msg`, and the
 * `request_id` of the request being answered, if any. Written in the
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

function bufferedStdout(): pino.DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => stdout.flush(), 250).unref();
  return stdout;
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
