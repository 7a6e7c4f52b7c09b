import { createPublicKey } from "node:crypto";
import { clerkIssuer } from "@app/auth";
import { databaseSettings } from "@app/db";
import { ConfigurationError, readSettings, serviceSettings } from "@app/service";
import { dataDirectory } from "@app/db/paths";
import { z } from "zod";
import { isAddressOrBlock } from "./api/client-address.ts";

/** Whether `pem` is a public key of a kind bearer tokens are signed with here (RS256, ES256). */
function isVerifyingKey(pem: string): boolean {
  // SPKI only, as the verifier imports it: createPublicKey also takes PKCS#1 and private keys.
  if (!/^\s*-----BEGIN PUBLIC KEY-----/.test(pem)) return false;
  try {
    const key = createPublicKey(pem);
    return key.asymmetricKeyType === "rsa" || key.asymmetricKeyDetails?.namedCurve === "prime256v1";
  } catch {
    return false;
  }
}

/** A text setting; empty counts as unset (readSettings). */
const optional = z.string().optional();

/** A comma-separated list: its items trimmed, empty ones dropped. */
const commaList = z
  .string()
  .default("")
  .transform((value) =>
    value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** Clerk's settings; the UI signs in with Clerk when its publishable key is set. */
const clerkSchema = z.object({
  NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: optional,
  /** The Clerk JWT template (audience AUTH_AUDIENCE) whose tokens the editor sends to the API. */
  CLERK_JWT_TEMPLATE: optional.transform((v) => v ?? "resume-api"),
});

const schema = clerkSchema.extend({
  ...databaseSettings,
  ...serviceSettings,
  /** Prometheus text at http://HOST:METRICS_PORT/metrics; unset: no metrics listener. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  DATA_DIR: optional,
  AUTH_ISSUER: optional,
  AUTH_AUDIENCE: optional,
  AUTH_JWKS_URL: optional.pipe(z.url({ protocol: /^https?$/, error: "an absolute http(s) URL" }).optional()),
  AUTH_PUBLIC_KEY: optional.refine(
    (pem) => pem === undefined || isVerifyingKey(pem),
    "a PEM public key (SPKI, -----BEGIN PUBLIC KEY-----) of RSA or an EC P-256 curve",
  ),
  /** Origins whose pages may call /me/* (comma-separated, or "*"); unset: none. */
  CORS_ALLOWED_ORIGINS: commaList.pipe(
    z.array(
      z.union([z.literal("*"), z.string().regex(/^https?:\/\/[^/\s]+$/, "an origin: scheme://host[:port]")]),
    ),
  ),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /** Requests to the public pages (/r/*) per client address per minute. */
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /**
   * The origin of share links' URLs (`https://resume.example`, perhaps with a path); unset:
   * http://localhost:PORT. Never taken from a request's Host, which its sender chooses.
   */
  PUBLIC_URL: optional.pipe(
    z
      .url({ protocol: /^https?$/, error: "an absolute http(s) URL" })
      .transform((url) => url.replace(/\/+$/, ""))
      .optional(),
  ),
  /**
   * Proxies (comma-separated IPs or CIDR blocks) whose X-Forwarded-For is believed when the public
   * pages take a client's address (src/api/client-address.ts); unset: the socket's peer, always.
   */
  TRUSTED_PROXIES: commaList.pipe(
    z.array(z.string().refine(isAddressOrBlock, "an IP address or CIDR block (10.0.0.0/8)")),
  ),
  /** Memory for GET /me/resume answers kept between requests (src/api/answer-cache.ts); 0 keeps none. */
  RESUME_ANSWER_CACHE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024 * 1024),
  /**
   * Worker threads that make PDF, Word and text documents (src/api/document-workers.ts), so that
   * rendering does not hold up other requests; 0 makes them on the request's own thread.
   */
  DOCUMENT_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /**
   * "true" lets the local sign-in, where anyone signs in as anyone, serve a HOST other machines
   * reach (a demo on a trusted network); otherwise such a start is refused
   * (src/refuse-local-sign-in-on-network.ts).
   */
  LOCAL_SIGN_IN_ON_NETWORK: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
});

export type WebEnv = z.infer<typeof schema> & { DATA_DIR: string };

export interface ClerkConfig {
  publishableKey: string;
  /** Clerk's Frontend API origin, from the publishable key (it serves Clerk's script). */
  frontendApi: string;
  jwtTemplate: string;
}

let cached: WebEnv | undefined;
let cachedClerk: ClerkConfig | null | undefined;

/**
 * The web app's configuration, validated on first use (not at import, so that
 * `next build` needs none of it).
 */
export function webEnv(): WebEnv {
  if (cached) return cached;
  const settings = readSettings(schema, process.env, "web");
  cached = { ...settings, DATA_DIR: dataDirectory(settings.DATA_DIR) };
  return cached;
}

/**
 * Clerk's settings when the UI signs in with Clerk, else null (the local
 * sign-in). Read apart from `webEnv` because the proxy, which runs before any
 * page, needs nothing else.
 */
export function clerkConfig(): ClerkConfig | null {
  if (cachedClerk !== undefined) return cachedClerk;
  const env = readSettings(clerkSchema, process.env, "web");
  cachedClerk = env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY
    ? {
        publishableKey: env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY,
        frontendApi: clerkIssuerOf(env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY),
        jwtTemplate: env.CLERK_JWT_TEMPLATE,
      }
    : null;
  return cachedClerk;
}

/** clerkIssuer, its refusal naming this app's variable. */
function clerkIssuerOf(publishableKey: string): string {
  try {
    return clerkIssuer(publishableKey);
  } catch {
    throw new ConfigurationError("NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: not a Clerk publishable key");
  }
}
