import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const fixture = path.join(import.meta.dirname, "fixtures", "log-lines.ts");
const run = async (...args: string[]) =>
  (await promisify(execFile)(process.execPath, ["--import", "tsx", fixture, ...args])).stdout.split("\n");

describe("logger", () => {
  it.each(["flush", "exit"])("writes every line, in order, before an exit (%s)", async (mode) => {
    const lines = await run("5000", mode);
    expect(lines.pop()).toBe("");
    expect(lines.map((line) => (JSON.parse(line) as { i: number }).i)).toEqual(
      Array.from({ length: 5000 }, (_, i) => i),
    );
  });

  it("writes a few lines within a quarter second without a flush", async () => {
    const lines = await run("3", "wait", "1000");
    expect(lines.slice(0, 4).map((line) => (line === "MARK" ? line : JSON.parse(line).msg))).toEqual([
      "line",
      "line",
      "line",
      "MARK",
    ]);
  });
});
