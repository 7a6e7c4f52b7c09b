import { z } from "zod";

/** The settings every service process reads from its environment (docs/operations.md, "Configuration"). */
export const serviceSettings = {
  /** How long a shutting-down server keeps serving (readiness 503, `Connection: close`) before it closes. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** The least severe log lines written: "info" writes one per request, "warn" only what went wrong. */
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
};

/** Settings that are wrong: the message names each variable and what is wrong with it, on one line. */
export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

/**
 * `schema` read from the environment `source`. A variable set to nothing
 * counts as unset, so it takes its default (a template's `HOST=${HOST}` with
 * nothing to put in must not listen on every interface, nor `PORT=` on a
 * random port), but for those in `keptEmpty`, whose default would be a
 * surprise (no credentials file: a generated key), for the schema to refuse.
 * Wrong values are a ConfigurationError naming each.
 */
export function readSettings<S extends z.ZodType>(
  schema: S,
  source: NodeJS.ProcessEnv,
  service: string,
  keptEmpty: readonly string[] = [],
): z.output<S> {
  const set = Object.fromEntries(
    Object.entries(source).filter(([name, value]) => value !== "" || keptEmpty.includes(name)),
  );
  const parsed = schema.safeParse(set);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  throw new ConfigurationError(`invalid ${service} configuration: ${problems.join("; ")}`);
}
