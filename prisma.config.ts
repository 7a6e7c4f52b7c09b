import { defineConfig } from "prisma/config";

// The Prisma CLI is used only for `prisma generate` (docs/operations.md, "Prisma
// on a machine without internet"): migrations are applied by packages/db's own runner.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
