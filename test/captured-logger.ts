import { createLogger, type Logger } from "@app/service";

/** A service's logger whose JSON lines are kept in `lines` (parsed), for tests that read them. */
export function capturedLogger(service: string): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(service, {
    destination: {
      write: (line: string) => {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  });
  return { logger, lines };
}
