import { z } from "zod";

/** The settings every service process reads from its environment (docs/operations.md, "Configuration"). */
export const serviceSettings = {
  /** How long a shutting-down server keeps serving (readiness 503, `Connection: close`) before it closes. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** The least severe log lines written: "info" writes one per request, "warn" only what went wrong. */
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
};
