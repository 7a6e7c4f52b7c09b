/**
 * `npm run token -- --user <id> [--ttl <seconds>]`: prints a bearer token from
 * the local development issuer, and nothing else, on stdout.
 */
import { parseArgs } from "node:util";
import { resolveAuthSetup } from "@app/auth";
import { env } from "./env.ts";

const usage = "usage: npm run -s token -- --user <id> [--ttl <seconds>]";

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

let values: { user?: string; ttl?: string };
try {
  ({ values } = parseArgs({ options: { user: { type: "string" }, ttl: { type: "string" } } }));
} catch (error) {
  fail(`${(error as Error).message}\n${usage}`);
}
if (!values.user) fail(usage);
const ttlSeconds = values.ttl === undefined ? 3600 : Number(values.ttl);
if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1)
  fail(`--ttl must be a whole number of seconds\n${usage}`);

const auth = await resolveAuthSetup(
  { ...env, CLERK_PUBLISHABLE_KEY: env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY },
  env.DATA_DIR,
).catch((error: unknown) => fail((error as Error).message));
if (auth.mode !== "local") {
  fail(`an identity provider is configured (${auth.mode}): get tokens from it, not from the local issuer`);
}
process.stdout.write(`${await auth.localIssuer.mintToken(values.user, { ttlSeconds })}\n`);
