/**
 * The servers run from bundles (scripts/server-bundles.ts): the workspace's
 * TypeScript in one file that plain node runs, every other package loaded
 * from node_modules, a new one when a source changes, never changed once
 * made, and the ones last used kept. Each case bundles a small app of its
 * own in a scratch folder.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/env.ts";
import { serverBundle } from "../scripts/server-bundles.ts";

const run = promisify(execFile);
const ENTRY_POINTS = ["app/src/main.ts", "app/src/worker.ts"];

let root: string;
const write = async (relative: string, text: string) => {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), text);
};

/** serverBundle in a process of its own, as a new `npm start` or test process calls it. */
async function bundleInNewProcess(): Promise<string> {
  const script = `import { serverBundle } from ${JSON.stringify(path.join(repoRoot, "scripts", "server-bundles.ts"))};
    console.log(serverBundle("app", ${JSON.stringify(ENTRY_POINTS)}, ${JSON.stringify(root)}));`;
  const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: repoRoot,
  });
  return stdout.trim();
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "server-bundles-"));
  await symlink(path.join(repoRoot, "node_modules"), path.join(root, "node_modules"));
  await write(
    "packages/greeting/src/index.ts",
    `export const greeting = (name: string): string => "hello " + name;`,
  );
  await write(
    "app/src/main.ts",
    `import pg from "pg";
     import { greeting } from "../../packages/greeting/src/index.ts";
     console.log(greeting("bundle"), typeof pg.Pool);`,
  );
  await write("app/src/worker.ts", `export const worker: number = 1;`);
});

afterEach(() => rm(root, { recursive: true, force: true }));

describe("a server's bundle", () => {
  it("runs with plain node: the workspace's TypeScript inside it, other packages loaded from node_modules", async () => {
    const main = serverBundle("app", ENTRY_POINTS, root);
    expect(path.relative(root, main)).toMatch(/^dist\/app\/[0-9a-f]{16}\/main\.mjs$/);
    expect(existsSync(path.join(path.dirname(main), "worker.mjs"))).toBe(true);

    const { stdout } = await run(process.execPath, [main]);
    expect(stdout.trim()).toBe("hello bundle function");
    const code = await readFile(main, "utf8");
    expect(code).toContain('from "pg"');
    expect(code).not.toContain("class Pool");
  });

  it("is made again when a source changes, and the one made before stays as it was", async () => {
    const first = await bundleInNewProcess();
    const made = await readFile(first, "utf8");
    expect(await bundleInNewProcess()).toBe(first);

    await write(
      "packages/greeting/src/index.ts",
      `export const greeting = (name: string): string => "hi " + name;`,
    );
    const second = await bundleInNewProcess();
    expect(second).not.toBe(first);
    expect((await run(process.execPath, [second])).stdout.trim()).toBe("hi bundle function");
    expect(await readFile(first, "utf8")).toBe(made);
  });

  it("made by several processes at once, is one bundle that runs, with nothing left half-written", async () => {
    const made = await Promise.all([bundleInNewProcess(), bundleInNewProcess(), bundleInNewProcess()]);
    expect(new Set(made).size).toBe(1);
    expect(await readdir(path.join(root, "dist", "app"))).toEqual([path.basename(path.dirname(made[0]!))]);
    expect((await run(process.execPath, [made[0]!])).stdout.trim()).toBe("hello bundle function");
  });

  it("is made again when its folder was removed while the process ran", async () => {
    const main = serverBundle("app", ENTRY_POINTS, root);
    await rm(path.dirname(main), { recursive: true });
    expect(serverBundle("app", ENTRY_POINTS, root)).toBe(main);
    expect((await run(process.execPath, [main])).stdout.trim()).toBe("hello bundle function");
  });

  it("keeps the four bundles last used before the current one, a bundle used again among them", async () => {
    const old = await bundleInNewProcess();
    const made = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    await utimes(path.dirname(old), made(60), made(60));
    for (const [age, name] of ["e1", "e2", "e3", "e4", "e5", "e6"].entries()) {
      await write(`dist/app/${name}/main.mjs`, "");
      await utimes(path.join(root, "dist", "app", name), made(age + 1), made(age + 1));
    }
    // The same sources again (a server started on them): their bundle is marked as used now.
    expect(await bundleInNewProcess()).toBe(old);

    await write(
      "packages/greeting/src/index.ts",
      `export const greeting = (name: string): string => "hi " + name;`,
    );
    const current = await bundleInNewProcess();
    expect((await readdir(path.join(root, "dist", "app"))).sort()).toEqual(
      [path.dirname(current), path.dirname(old)]
        .map((dir) => path.basename(dir))
        .concat("e1", "e2", "e3")
        .sort(),
    );
  });
});
