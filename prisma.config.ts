import { defineConfig } from "prisma/config";

// The Prisma CLI is used only for `prisma generate` (see README, "Database"):
// migrations are applied by packages/db's own runner.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
