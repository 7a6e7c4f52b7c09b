/**
 * The servers run as JavaScript bundles that esbuild makes from their
 * TypeScript, not through tsx: tsx compiles each file on its own, with
 * `keepNames` (a call that names each function when it is made, per request
 * for the closures a request makes), and a bundle is one module whose parts
 * call each other directly. From a bundle the ledger spends less CPU a post
 * (docs/benchmarks.md, "The servers run from bundles"). A bundle is made again
 * when its sources change; tests start their servers from it too, so what is
 * tested is what runs.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";
import { digestOfInputs } from "./build-inputs.ts";
import { repoRoot } from "./env.ts";

/** Bundles of earlier sources kept beside the current one: a server started from one may still start a worker from it. */
const KEPT_EARLIER_BUNDLES = 4;

/** Bundles this process made or found, by folder and name: the sources do not change while it runs. */
const madeHere = new Map<string, string>();

/**
 * The path of the bundled first entry point (`dist/<name>/<digest>/<entry>.mjs`;
 * each further entry point, such as a worker's file, is beside it), made first
 * unless a bundle of the same sources is there. What it is made from: the
 * entry points' folders, the workspace's packages and the locked dependencies.
 * A bundle is never changed once made: another process, or a server that is
 * running, may be using it.
 */
export function serverBundle(name: string, entryPoints: string[], root = repoRoot): string {
  const bundlesDir = path.join(root, "dist", name);
  const known = madeHere.get(bundlesDir);
  if (known) return known;
  const folders = [...new Set(entryPoints.map((entry) => path.dirname(entry)))];
  const inputs = [...folders, "packages", "package-lock.json", "tsconfig.base.json"];
  const digest = digestOfInputs(inputs, {}, root).slice(0, 16);
  const dir = path.join(bundlesDir, digest);
  if (!existsSync(dir)) {
    bundleInto(root, entryPoints, dir);
    removeEarlierBundles(bundlesDir, digest);
  }
  const first = path.join(dir, `${path.basename(entryPoints[0]!, ".ts")}.mjs`);
  madeHere.set(bundlesDir, first);
  return first;
}

/** Made in a folder of this process's own, then renamed into place whole: a reader never sees half a bundle. */
function bundleInto(root: string, entryPoints: string[], dir: string): void {
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  buildSync({
    entryPoints: entryPoints.map((entry) => path.join(root, entry)),
    outdir: building,
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
  });
  try {
    renameSync(building, dir);
  } catch (error) {
    // Another process made the same bundle first: theirs is the same, keep it.
    rmSync(building, { recursive: true, force: true });
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

function removeEarlierBundles(bundlesDir: string, current: string): void {
  const earlier = readdirSync(bundlesDir)
    .filter((name) => name !== current)
    .map((name) => ({ name, made: statSync(path.join(bundlesDir, name)).mtimeMs }))
    .sort((a, b) => b.made - a.made);
  for (const { name } of earlier.slice(KEPT_EARLIER_BUNDLES)) {
    rmSync(path.join(bundlesDir, name), { recursive: true, force: true });
  }
}
