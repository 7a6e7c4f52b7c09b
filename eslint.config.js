import js from "@eslint/js";
import tseslint from "typescript-eslint";

/*
 * One import style in apps/web: a file of the app is imported by its relative
 * path with its extension (`./trpc.ts`, `../server/auth.ts`), never through
 * the `~/` alias nor without the extension. Why this one:
 * - It is how every other package, script and test of the repository imports,
 *   so the web app reads like the rest.
 * - It resolves the same in every tool that loads these files, with no alias
 *   to configure in each: Next.js (Turbopack), tsx (`src/main.ts`), Vitest
 *   (the root tests import `apps/web/src/api/*.ts`) and TypeScript
 *   (`allowImportingTsExtensions`); an alias would have to be taught to each.
 * - The extension is what Node's own ESM resolution requires, and a `~` would
 *   mean a different folder in each package of a monorepo.
 * `no-restricted-imports` checks static imports and re-exports; dynamic
 * `import()` (lazy panels, next/dynamic) is checked by `no-restricted-syntax`.
 */
const ALIAS = String.raw`^~\/`;
const RELATIVE_WITHOUT_EXTENSION = String.raw`^\.{1,2}(?:$|\/(?!.*\.(?:tsx?|css|json)$))`;
const IMPORT_STYLE =
  "Import files of the app by relative path with the extension, e.g. './trpc.ts' (eslint.config.js says why).";

/*
 * Domain and store code knows no transport: it throws DomainError
 * (`@app/rest/errors`), which the edge turns into an answer. Only the router
 * layer (trpc.ts, routers/) and packages/rest speak tRPC.
 */
const DOMAIN_CODE = [
  "packages/*/src/store/**/*.ts",
  "packages/resume/src/json-resume/**/*.ts",
  "packages/resume/src/markdown/**/*.ts",
  "packages/resume/src/themes/**/*.ts",
  "packages/resume/src/documents/**/*.ts",
];
const NO_TRANSPORT =
  "Domain and store code throws DomainError from @app/rest/errors; tRPC stays in the router layer.";

/*
 * The services' statements go to the pool without Prisma: its raw queries and
 * transactions cost a resume entry's create about half again the web app's
 * CPU (docs/benchmarks.md, "Entry writes without Prisma").
 */
const PRISMA_QUERY = String.raw`^\$(queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe|transaction)$`;
const NO_PRISMA_QUERY = {
  selector: `MemberExpression[property.name=/${PRISMA_QUERY}/]`,
  message: "Statements go through queryRows, transactions through inTransaction (@app/db).",
};

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/.next/**",
      "**/generated/**",
      ".data/**",
      "dist/**",
      "**/next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: DOMAIN_CODE,
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: String.raw`^@trpc\/`, message: NO_TRANSPORT }] },
      ],
    },
  },
  {
    files: ["packages/*/src/**/*.ts", "apps/*/src/**/*.{ts,tsx}"],
    rules: { "no-restricted-syntax": ["error", NO_PRISMA_QUERY] },
  },
  {
    files: ["apps/web/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: ALIAS, message: IMPORT_STYLE },
            { regex: RELATIVE_WITHOUT_EXTENSION, message: IMPORT_STYLE },
          ],
        },
      ],
      // Replaces the setting above for these files (their tests too): the rule against Prisma's queries is repeated.
      "no-restricted-syntax": [
        "error",
        NO_PRISMA_QUERY,
        { selector: `ImportExpression[source.value=/${ALIAS}/]`, message: IMPORT_STYLE },
        { selector: `ImportExpression[source.value=/${RELATIVE_WITHOUT_EXTENSION}/]`, message: IMPORT_STYLE },
      ],
    },
  },
);
