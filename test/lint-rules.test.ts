import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/env.ts";

/**
 * The project's own lint rules (eslint.config.js), run on code that breaks
 * them, placed where they apply and where they do not: a rule that stops
 * applying where it should (a setting replaced by a later block, a glob that
 * misses a folder) fails here, not silently.
 */
const eslint = new ESLint({ cwd: repoRoot });

/** The messages of the project's rules for `code` as the file `filePath` (relative to the repository). */
async function projectRuleMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${repoRoot}/${filePath}` });
  return result!.messages
    .filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-syntax")
    .map((m) => m.message);
}

const TRPC_IMPORT = `import { TRPCError } from "@trpc/server";\nexport const e = TRPCError;\n`;
const PRISMA_QUERY = `export const q = (db: { $queryRawUnsafe(s: string): unknown }) => db.$queryRawUnsafe("SELECT 1");\n`;
const PRISMA_TRANSACTION = `export const t = (db: { $transaction(f: () => void): unknown }) => db.$transaction(() => {});\n`;

describe("the project's lint rules", () => {
  it("keep tRPC out of domain and store code, and allow it in the router layer", async () => {
    for (const file of [
      "packages/ledger/src/store/new-store.ts",
      "packages/resume/src/store/new-store.ts",
      "packages/resume/src/markdown/new-part.ts",
      "packages/resume/src/json-resume/new-part.ts",
      "packages/resume/src/themes/new-part.ts",
      "packages/resume/src/documents/new-part.ts",
    ])
      expect(await projectRuleMessages(file, TRPC_IMPORT), file).toEqual([
        expect.stringContaining("tRPC stays in the router layer"),
      ]);
    expect(await projectRuleMessages("packages/resume/src/routers/new-router.ts", TRPC_IMPORT)).toEqual([]);
  });

  it("refuse Prisma's raw queries and transactions in every package's and app's code", async () => {
    for (const file of [
      "packages/ledger/src/store/new-store.ts",
      "packages/resume/src/routers/new-router.ts",
      "packages/db/src/new-part.ts",
      "packages/service/src/new-part.ts",
      "apps/ledger/src/new-part.ts",
      "apps/web/src/api/new-part.ts",
    ])
      for (const code of [PRISMA_QUERY, PRISMA_TRANSACTION])
        expect(await projectRuleMessages(file, code), file).toEqual([
          expect.stringContaining("Statements go through queryRows"),
        ]);
    expect(await projectRuleMessages("packages/db/test/new-test.ts", PRISMA_QUERY)).toEqual([]);
  });

  it("ask the web app for one import style, static and dynamic", async () => {
    const file = "apps/web/src/api/new-part.ts";
    expect(await projectRuleMessages(file, `import { x } from "./trpc";\nexport const y = x;\n`)).toEqual([
      expect.stringContaining("with the extension"),
    ]);
    expect(await projectRuleMessages(file, `export const y = () => import("../x");\n`)).toEqual([
      expect.stringContaining("with the extension"),
    ]);
    expect(await projectRuleMessages(file, `import { x } from "./trpc.ts";\nexport const y = x;\n`)).toEqual(
      [],
    );
  });
});
