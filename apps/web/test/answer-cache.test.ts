import { describe, expect, it } from "vitest";
import { createAnswerCache } from "../src/api/answer-cache.ts";

const answer = (body: string) => ({ status: 200, headers: { "content-type": "text/plain" }, body });

describe("answer cache", () => {
  it("gives an answer back only for the version it was kept with", () => {
    const cache = createAnswerCache({ maxBytes: 1000 });
    cache.set("alice", "7", answer("resume v7"));
    expect(cache.get("alice", "7")?.body.toString()).toBe("resume v7");
    expect(cache.get("alice", "8")).toBeUndefined();
    expect(cache.get("bob", "7")).toBeUndefined();
    cache.set("alice", "8", answer("resume v8"));
    expect(cache.get("alice", "7")).toBeUndefined();
    expect(cache.get("alice", "8")?.body.toString()).toBe("resume v8");
  });

  it("forgets the least recently used answers once the bodies pass maxBytes", () => {
    const cache = createAnswerCache({ maxBytes: 30 });
    cache.set("a", "1", answer("x".repeat(10)));
    cache.set("b", "1", answer("y".repeat(10)));
    cache.set("c", "1", answer("z".repeat(10)));
    expect(cache.get("a", "1")).toBeDefined(); // now b is the least recently used
    cache.set("d", "1", answer("w".repeat(10)));
    expect(cache.get("b", "1")).toBeUndefined();
    expect(["a", "c", "d"].map((k) => cache.get(k, "1")?.body.toString()[0])).toEqual(["x", "z", "w"]);
    cache.set("huge", "1", answer("h".repeat(31)));
    expect(cache.get("huge", "1")).toBeUndefined();
  });

  it("keeps the answer just set when every older one was used since: the oldest of those goes", () => {
    const cache = createAnswerCache({ maxBytes: 30 });
    for (const key of ["a", "b", "c"]) cache.set(key, "1", answer(key.repeat(10)));
    for (const key of ["a", "b", "c"]) expect(cache.get(key, "1")).toBeDefined();
    cache.set("d", "1", answer("d".repeat(10)));
    expect(["a", "b", "c", "d"].map((k) => cache.get(k, "1")?.body.toString()[0])).toEqual([
      undefined,
      "b",
      "c",
      "d",
    ]);
  });
});
