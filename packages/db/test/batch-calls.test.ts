import { describe, expect, it } from "vitest";
import { batchCalls, batchCallsPerClient } from "../src/batch-calls.ts";

/** A lookup whose calls the test ends by hand, recording the keys of each call. */
function manualLookup() {
  const calls: { keys: string[]; answer(values?: Record<string, number>): void; fail(error: Error): void }[] =
    [];
  const lookup = (keys: string[]) =>
    new Promise<Map<string, number>>((resolve, reject) => {
      calls.push({
        keys,
        answer: (values = {}) => resolve(new Map(keys.map((k) => [k, values[k] ?? k.length]))),
        fail: reject,
      });
    });
  return { calls, lookup };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("batchCalls", () => {
  it("answers callers who asked while a call was under way with one next call, never with the earlier one", async () => {
    const { calls, lookup } = manualLookup();
    const read = batchCalls(lookup);
    const first = read("a");
    await tick();
    expect(calls.map((c) => c.keys)).toEqual([["a"]]);

    // Asked while the first call runs: they must wait for a call that starts after they asked.
    const later = [read("a"), read("bb"), read("bb")];
    await tick();
    expect(calls).toHaveLength(1);
    calls[0]!.answer({ a: 1 });
    expect(await first).toBe(1);
    await tick();
    expect(calls.map((c) => c.keys)).toEqual([["a"], ["a", "bb"]]);
    calls[1]!.answer({ a: 2, bb: 3 });
    expect(await Promise.all(later)).toEqual([2, 3, 3]);
  });

  it("starts the next call in the turn after an answer: callers read in the answer's turn join it", async () => {
    const { calls, lookup } = manualLookup();
    const read = batchCalls(lookup);
    const answers = [read("a")];
    await tick();
    answers.push(read("bb"));
    calls[0]!.answer();
    // What the rest of the event loop's turn runs: the answer's callbacks, then more requests read.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    answers.push(read("ccc"));
    await tick();
    expect(calls.map((c) => c.keys)).toEqual([["a"], ["bb", "ccc"]]);
    calls[1]!.answer();
    expect(await Promise.all(answers)).toEqual([1, 2, 3]);
  });

  it("fails every caller of a failed call, and the next call still runs", async () => {
    const { calls, lookup } = manualLookup();
    const read = batchCalls(lookup);
    const failed = read("a");
    const queued = read("b");
    await tick();
    calls[0]!.fail(new Error("database down"));
    await expect(failed).rejects.toThrow("database down");
    await tick();
    calls[1]!.answer({ b: 7 });
    expect(await queued).toBe(7);

    const after = read("c");
    await tick();
    calls[2]!.answer({ c: 9 });
    expect(await after).toBe(9);
  });

  it("fails callers when the lookup throws before returning a promise", async () => {
    const read = batchCalls<string, number>(() => {
      throw new Error("bad lookup");
    });
    await expect(read("a")).rejects.toThrow("bad lookup");
    await expect(read("b")).rejects.toThrow("bad lookup");
  });

  it("with isolate, a failed call of several keys is retried key by key, so only the failing key's callers fail", async () => {
    const calls: string[][] = [];
    const read = batchCalls(
      async (keys: string[]) => {
        calls.push(keys);
        if (keys.includes("bad")) throw new Error(keys.length > 1 ? "a bad key among several" : "bad key");
        return new Map(keys.map((k) => [k, k.length]));
      },
      { isolate: (error) => (error as Error).message !== "database down" },
    );
    const answers = await Promise.allSettled([read("a"), read("bad"), read("ccc")]);
    expect(answers).toEqual([
      { status: "fulfilled", value: 1 },
      { status: "rejected", reason: new Error("bad key") },
      { status: "fulfilled", value: 3 },
    ]);
    // "a" went alone (nothing was running); the other two shared a call, then went one by one.
    expect(calls).toEqual([["a"], ["bad", "ccc"], ["bad"], ["ccc"]]);
  });

  it("with isolate, fails every caller at once when the failure is not the keys' (no retry storm in an outage)", async () => {
    const calls: string[][] = [];
    const read = batchCalls(
      async (keys: string[]): Promise<Map<string, number>> => {
        calls.push(keys);
        throw new Error("database down");
      },
      { isolate: (error) => (error as Error).message !== "database down" },
    );
    const answers = await Promise.allSettled([read("a"), read("b"), read("c")]);
    expect(answers.map((a) => a.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(calls).toEqual([["a"], ["b", "c"]]);
  });
});

describe("batchCalls with overlapFrom", () => {
  it("starts a second call while one runs once that many keys wait, and never a third", async () => {
    const { calls, lookup } = manualLookup();
    const read = batchCalls(lookup, { overlapFrom: 3 });
    const answers = [read("a")];
    await tick();
    answers.push(read("b"), read("c"));
    await tick();
    // Two keys wait: below overlapFrom, they wait for the first call's answer.
    expect(calls.map((c) => c.keys)).toEqual([["a"]]);
    answers.push(read("d"));
    await tick();
    expect(calls.map((c) => c.keys)).toEqual([["a"], ["b", "c", "d"]]);
    // Two calls under way: however many wait, the next one starts when one of them ends.
    answers.push(...["e", "f", "g", "h"].map((key) => read(key)));
    await tick();
    expect(calls).toHaveLength(2);
    calls[1]!.answer();
    await tick(); // the answers
    await tick(); // the next call, in the turn after them
    expect(calls.map((c) => c.keys)).toEqual([["a"], ["b", "c", "d"], ["e", "f", "g", "h"]]);
    calls[0]!.answer();
    calls[2]!.answer();
    expect(await Promise.all(answers)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it("never answers a caller with a call that was under way when it asked", async () => {
    const { calls, lookup } = manualLookup();
    const read = batchCalls(lookup, { overlapFrom: 1 });
    const first = read("a");
    const again = read("a");
    await tick();
    expect(calls.map((c) => c.keys)).toEqual([["a"], ["a"]]);
    calls[0]!.answer({ a: 1 });
    calls[1]!.answer({ a: 2 });
    expect([await first, await again]).toEqual([1, 2]);
  });
});

describe("batchCallsPerClient", () => {
  it("coalesces each client's calls apart, with that client, one call at a time each", async () => {
    const { calls, lookup } = manualLookup();
    const clients: object[] = [];
    const read = batchCallsPerClient((client: object, keys: string[]) => {
      clients.push(client);
      return lookup(keys);
    });
    const [one, two] = [{}, {}];
    const answers = [read(one, "a"), read(two, "bb"), read(one, "ccc")];
    await tick();
    expect(calls.map((c) => c.keys)).toEqual([["a"], ["bb"]]);
    expect(clients).toEqual([one, two]);
    expect(clients[0]).toBe(one);
    calls[0]!.answer();
    calls[1]!.answer();
    await tick(); // the answers
    await tick(); // the next call, in the turn after them
    expect(calls.map((c) => c.keys)).toEqual([["a"], ["bb"], ["ccc"]]);
    expect(clients[2]).toBe(one);
    calls[2]!.answer();
    expect(await Promise.all(answers)).toEqual([1, 2, 3]);
  });
});
