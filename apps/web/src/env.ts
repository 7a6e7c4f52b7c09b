import path from "node:path";
import { findRepoRoot } from "@app/db/paths";
import { z } from "zod";

const optional = z
  .string()
  .optional()
  .transform((v) => (v === "" ? undefined : v));

const schema = z.object({
  DATABASE_URL: z.string().url(),
  DATA_DIR: optional,
  AUTH_ISSUER: optional,
  AUTH_AUDIENCE: optional,
  AUTH_JWKS_URL: optional,
  AUTH_PUBLIC_KEY: optional,
  NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: optional,
  CLERK_SECRET_KEY: optional,
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
});

export type WebEnv = z.infer<typeof schema> & { DATA_DIR: string };

let cached: WebEnv | undefined;

/**
 * The web app's configuration, validated on first use (not at import, so that
 * `next build` needs none of it).
 */
export function webEnv(): WebEnv {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) throw new Error(`Invalid web configuration:\n${z.prettifyError(parsed.error)}`);
  cached = { ...parsed.data, DATA_DIR: path.resolve(findRepoRoot(), parsed.data.DATA_DIR ?? ".data") };
  return cached;
}
