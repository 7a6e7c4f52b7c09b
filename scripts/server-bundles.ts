/**
 * The servers run as JavaScript bundles that esbuild makes from their
 * TypeScript, not through tsx: tsx compiles each file on its own, as a module
 * of its own, with `keepNames` (a call that names each function as it is
 * made, per request for the closures a request makes); a bundle is one module.
 * From a bundle the ledger spends less CPU a post (docs/benchmarks.md, "The
 * servers run from bundles").
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { buildSync, type OutputFile } from "esbuild";
import { repoRoot } from "./env.ts";

/** Bundles last used before the current one, kept: a server started from one may still start a worker from it. */
const KEPT_EARLIER_BUNDLES = 4;
/** A folder being written for this long was left by a process that ended mid-write. */
const ABANDONED_AFTER_MS = 10 * 60_000;

/** The bundles this process made or used, by folder: the sources do not change while it runs. */
const usedHere = new Map<string, string>();

/**
 * The path of the bundled first entry point, `dist/<name>/<digest>/<entry>.mjs`
 * (each further entry point, such as a worker's file, is beside it). The bundle
 * is made each time a process first asks for it (a tenth of a second) and
 * filed under the digest of what came out, so it is never stale, and a
 * bundle is never changed once made: another process, or a server that is
 * running, may be using it. A bundle made before of the same code is used
 * again and marked as used now.
 */
export function serverBundle(name: string, entryPoints: string[], root = repoRoot): string {
  const bundlesDir = path.join(root, "dist", name);
  const known = usedHere.get(bundlesDir);
  if (known && existsSync(known)) return known;
  // Written one folder below bundlesDir, as the bundle's own folder is, so the source maps' relative paths hold.
  const outputs = bundled(root, entryPoints, path.join(bundlesDir, "bundle"));
  const current = digestOf(outputs);
  const dir = path.join(bundlesDir, current);
  if (existsSync(dir)) utimesSync(dir, new Date(), new Date());
  else writeWhole(outputs, dir);
  removeEarlierBundles(bundlesDir, current);
  const first = path.join(dir, `${path.basename(entryPoints[0]!, ".ts")}.mjs`);
  usedHere.set(bundlesDir, first);
  return first;
}

/** What names a bundle's folder: its files' names and contents. */
function digestOf(outputs: OutputFile[]): string {
  const hash = createHash("sha256");
  for (const file of outputs)
    hash
      .update(`${path.basename(file.path)}\0`)
      .update(file.contents)
      .update("\0");
  return hash.digest("hex").slice(0, 16);
}

function bundled(root: string, entryPoints: string[], outdir: string): OutputFile[] {
  return buildSync({
    entryPoints: entryPoints.map((entry) => path.join(root, entry)),
    outdir,
    write: false,
    entryNames: "[name]",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20.19",
    // Beside the bundle, for stack traces that name the TypeScript files: NODE_OPTIONS=--enable-source-maps
    // (off by default: it made the web app's reads a few per cent slower).
    sourcemap: "linked",
    sourcesContent: false,
    // The workspace's packages are TypeScript and bundled; every other package is loaded from node_modules.
    external: installedPackages(root),
    logLevel: "warning",
  }).outputFiles;
}

/** Written in a folder of this process's own, then renamed into place whole: a reader never sees half a bundle. */
function writeWhole(outputs: OutputFile[], dir: string): void {
  const writing = `${dir}.writing-${process.pid}`;
  rmSync(writing, { recursive: true, force: true });
  mkdirSync(writing, { recursive: true });
  for (const file of outputs) writeFileSync(path.join(writing, path.basename(file.path)), file.contents);
  try {
    renameSync(writing, dir);
  } catch (error) {
    // Another process wrote the same bundle first: theirs is the same, keep it.
    rmSync(writing, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
}

/** The names of the packages in node_modules, but the workspace's own (`@app/*`). */
function installedPackages(root: string): string[] {
  const modules = path.join(root, "node_modules");
  return readdirSync(modules)
    .filter((name) => !name.startsWith(".") && name !== "@app")
    .flatMap((name) =>
      name.startsWith("@")
        ? readdirSync(path.join(modules, name)).map((scoped) => `${name}/${scoped}`)
        : [name],
    );
}

/** Other processes may be removing or writing bundles meanwhile: one that is gone is passed over. */
function removeEarlierBundles(bundlesDir: string, current: string): void {
  const lastUsed = (name: string) => {
    try {
      return statSync(path.join(bundlesDir, name)).mtimeMs;
    } catch {
      return undefined;
    }
  };
  const remove = (name: string) => rmSync(path.join(bundlesDir, name), { recursive: true, force: true });
  const earlier: { name: string; used: number }[] = [];
  for (const name of readdirSync(bundlesDir)) {
    const used = lastUsed(name);
    if (name === current || used === undefined) continue;
    if (!name.includes(".writing-")) earlier.push({ name, used });
    else if (Date.now() - used > ABANDONED_AFTER_MS) remove(name);
  }
  earlier.sort((a, b) => b.used - a.used);
  for (const { name } of earlier.slice(KEPT_EARLIER_BUNDLES)) remove(name);
}
