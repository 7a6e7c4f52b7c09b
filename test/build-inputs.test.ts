/**
 * The digest that decides whether `npm start` and `npm test` make the Prisma
 * client and the web build again: every source and setting counts, outputs
 * and tests do not. A digest that missed an input would serve a stale build.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digestOfInputs } from "../scripts/build-inputs.ts";

let root: string;
const write = async (relative: string, text: string) => {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), text);
};
const digest = (values: Record<string, string> = {}) =>
  digestOfInputs(["apps/web", "packages", "package-lock.json"], values, root);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "build-inputs-"));
  await write("apps/web/src/page.tsx", "export default 1;");
  await write("apps/web/test/page.test.ts", "test");
  await write("apps/web/.next/BUILD_ID", "a");
  await write("apps/web/next-env.d.ts", "/// <reference />");
  await write("packages/db/src/generated/client.ts", "generated");
  await write("packages/resume/src/index.ts", "export {};");
  await write("packages/resume/node_modules/x/index.js", "x");
  await write("package-lock.json", "{}");
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe("digestOfInputs", () => {
  it("changes with any source, the locked dependencies, a new file and a setting", async () => {
    const before = digest();
    expect(digest()).toBe(before);
    for (const [file, text] of [
      ["packages/resume/src/index.ts", "export const changed = 1;"],
      ["packages/db/src/generated/client.ts", "generated again"],
      ["package-lock.json", '{"lockfileVersion":3}'],
      ["packages/resume/src/new-file.ts", ""],
      ["apps/web/src/page.tsx", "export default 2;"],
    ]) {
      const last = digest();
      await write(file!, text!);
      expect(digest(), file).not.toBe(last);
    }
    expect(digest({ NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: "pk_test" })).not.toBe(digest());
  });

  it("leaves out outputs, dependencies, tests and the file next build writes", async () => {
    const before = digest();
    await write("apps/web/.next/BUILD_ID", "b");
    await write("apps/web/next-env.d.ts", "/// <reference path='x' />");
    await write("apps/web/test/page.test.ts", "changed test");
    await write("packages/resume/node_modules/x/index.js", "y");
    await write("packages/resume/tsconfig.tsbuildinfo", "{}");
    expect(digest()).toBe(before);
  });
});
