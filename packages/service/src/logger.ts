import { inspect } from "node:util";
import pino from "pino";
import { currentRequest } from "./request-context.ts";

export type Logger = pino.Logger;

/**
 * JSON lines on stdout: `time`, `level`, `service`, `msg`, and the
 * `request_id` of the request being answered, if any. Written asynchronously
 * (flush before exit). Callers log fields, never a token, a secret or a body.
 */
export function createLogger(
  service: string,
  destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false }),
): Logger {
  return pino(
    {
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const request = currentRequest();
        return request ? { request_id: request.id } : {};
      },
    },
    destination,
  );
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
