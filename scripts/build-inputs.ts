/**
 * Whether a generated output (the Prisma client, the web app's build) was made
 * from the sources there are now: a digest of its inputs' contents is kept
 * beside the output once it is made, and a later start with the same digest
 * reuses the output instead of making it again.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./env.ts";

/**
 * What is never an input: outputs, caches, dependencies, tests, and
 * `next-env.d.ts`, which `next build` itself writes (counted, a checkout's
 * first build would never be reused).
 */
const NOT_INPUTS = new Set([
  ".next",
  ".turbo",
  "node_modules",
  "test",
  "e2e",
  "test-results",
  "next-env.d.ts",
]);

/**
 * The digest of `paths` (files, or folders walked in name order, relative to
 * `root`, the repository) and of `values` (settings that shape the output).
 */
export function digestOfInputs(
  paths: string[],
  values: Record<string, string | undefined> = {},
  root = repoRoot,
): string {
  const hash = createHash("sha256");
  const add = (relative: string) => {
    const full = path.join(root, relative);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) {
        if (!NOT_INPUTS.has(name) && !name.endsWith(".tsbuildinfo")) add(path.join(relative, name));
      }
      return;
    }
    hash.update(`${relative}\0`).update(readFileSync(full)).update("\0");
  };
  for (const relative of paths) add(relative);
  hash.update(JSON.stringify(Object.entries(values).sort()));
  return hash.digest("hex");
}

/** True when `stampFile` records `digest` (and so the output beside it was made from these inputs). */
export function isMadeFrom(stampFile: string, digest: string): boolean {
  try {
    return readFileSync(stampFile, "utf8").trim() === digest;
  } catch {
    return false;
  }
}

export function recordMadeFrom(stampFile: string, digest: string): void {
  writeFileSync(stampFile, `${digest}\n`);
}
