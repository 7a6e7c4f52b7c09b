import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { writeAllSync } from "../src/write-all-sync.ts";

describe("writeAllSync", () => {
  it("writes all of a text to a non-blocking reader that takes nothing for a while", async () => {
    // A reader that starts reading after 0.3 s, and counts the bytes it gets.
    const reader = spawn("/bin/sh", ["-c", "sleep 0.3; wc -c"], { stdio: ["pipe", "pipe", "ignore"] });
    // The connection to it, non-blocking as a server's stdout read by another process is.
    const fd = (reader.stdin as unknown as { _handle: { fd: number } })._handle.fd;
    let filled = 0;
    for (;;) {
      try {
        filled += writeSync(fd, Buffer.alloc(65_536, "x"));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") break; // full: the next write takes nothing
        throw error;
      }
    }
    const counted = once(reader.stdout!, "data");

    writeAllSync(fd, "y".repeat(100_000));

    reader.stdin!.end();
    const [count] = (await counted) as [Buffer];
    expect(Number(count.toString().trim())).toBe(filled + 100_000);
  });
});
