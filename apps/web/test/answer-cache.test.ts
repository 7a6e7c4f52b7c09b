import { describe, expect, it } from "vitest";
import { createAnswerCache } from "../src/api/answer-cache.ts";

const answer = (body: string) => ({ status: 200, headers: { "content-type": "text/plain" }, body });

describe("answer cache", () => {
  it("gives an answer back only for the group, key and version it was kept with", () => {
    const cache = createAnswerCache({ maxBytes: 1000 });
    cache.set("alice", "resume", "7", answer("resume v7"));
    expect(cache.get("alice", "resume", "7")?.body.toString()).toBe("resume v7");
    expect(cache.get("alice", "resume", "8")).toBeUndefined();
    expect(cache.get("alice", "page", "7")).toBeUndefined();
    expect(cache.get("bob", "resume", "7")).toBeUndefined();
    cache.set("alice", "resume", "8", answer("resume v8"));
    expect(cache.get("alice", "resume", "7")).toBeUndefined();
    expect(cache.get("alice", "resume", "8")?.body.toString()).toBe("resume v8");
  });

  it("forgets a group at once: its answers are neither given back nor held, until kept again", () => {
    const cache = createAnswerCache({ maxBytes: 1000 });
    cache.set("alice", "resume", "7", answer("resume"));
    cache.set("alice", "page", "7", answer("page"));
    cache.set("bob", "resume", "7", answer("bob's"));
    expect(cache.holds("alice", "resume")).toBe(true);
    cache.forget("alice");
    expect(cache.holds("alice", "resume")).toBe(false);
    expect(cache.get("alice", "resume", "7")).toBeUndefined();
    expect(cache.get("alice", "page", "7")).toBeUndefined();
    expect(cache.get("bob", "resume", "7")?.body.toString()).toBe("bob's");
    cache.set("alice", "resume", "8", answer("resume v8"));
    expect(cache.holds("alice", "resume")).toBe(true);
    expect(cache.get("alice", "resume", "8")?.body.toString()).toBe("resume v8");
    expect(cache.holds("alice", "page")).toBe(false);
  });

  it("lists the answers kept with a source and given back since, with their version and answer, until forgotten or kept again", () => {
    const cache = createAnswerCache({ maxBytes: 1000 });
    cache.set("alice", "resume", "7", answer("resume"), "/me/resume");
    cache.set("alice", "page", "7", answer("page"), "/me/resume");
    cache.set("alice", "sourceless", "7", answer("no source"));
    expect(cache.givenBackSinceKept("alice")).toEqual([]);
    cache.get("alice", "resume", "7");
    cache.get("alice", "sourceless", "7");
    cache.get("alice", "page", "8");
    expect(
      cache.givenBackSinceKept("alice").map(({ key, source, version, answer }) => ({
        key,
        source,
        version,
        body: answer.body.toString(),
      })),
    ).toEqual([{ key: "resume", source: "/me/resume", version: "7", body: "resume" }]);
    expect(cache.givenBackSinceKept("bob")).toEqual([]);
    cache.set("alice", "resume", "8", answer("resume v8"), "/me/resume");
    expect(cache.givenBackSinceKept("alice")).toEqual([]);
    cache.get("alice", "resume", "8");
    cache.forget("alice");
    expect(cache.givenBackSinceKept("alice")).toEqual([]);
  });

  it("forgets groups not used lately once the bodies pass maxBytes", () => {
    const cache = createAnswerCache({ maxBytes: 30 });
    cache.set("a", "resume", "1", answer("x".repeat(10)));
    cache.set("b", "resume", "1", answer("y".repeat(10)));
    cache.set("c", "resume", "1", answer("z".repeat(10)));
    expect(cache.get("a", "resume", "1")).toBeDefined(); // now b is the one not used lately
    cache.set("d", "resume", "1", answer("w".repeat(10)));
    expect(cache.get("b", "resume", "1")).toBeUndefined();
    expect(["a", "c", "d"].map((g) => cache.get(g, "resume", "1")?.body.toString()[0])).toEqual([
      "x",
      "z",
      "w",
    ]);
    cache.set("huge", "resume", "1", answer("h".repeat(31)));
    expect(cache.get("huge", "resume", "1")).toBeUndefined();
  });

  it("keeps the group just set when every older one was used since: the oldest of those goes", () => {
    const cache = createAnswerCache({ maxBytes: 30 });
    for (const group of ["a", "b", "c"]) cache.set(group, "resume", "1", answer(group.repeat(10)));
    for (const group of ["a", "b", "c"]) expect(cache.get(group, "resume", "1")).toBeDefined();
    cache.set("d", "resume", "1", answer("d".repeat(10)));
    expect(["a", "b", "c", "d"].map((g) => cache.get(g, "resume", "1")?.body.toString()[0])).toEqual([
      undefined,
      "b",
      "c",
      "d",
    ]);
  });

  it("keeps at most maxBytes when one group alone passes it: its other answers go", () => {
    const cache = createAnswerCache({ maxBytes: 30 });
    cache.set("a", "json", "1", answer("j".repeat(20)));
    cache.set("a", "html", "1", answer("h".repeat(20)));
    expect(cache.get("a", "json", "1")).toBeUndefined();
    expect(cache.get("a", "html", "1")?.body.toString()[0]).toBe("h");
  });

  it("counts a replaced answer's bytes once", () => {
    const cache = createAnswerCache({ maxBytes: 30 });
    for (const version of ["1", "2", "3", "4"]) cache.set("a", "resume", version, answer("x".repeat(10)));
    cache.set("b", "resume", "1", answer("y".repeat(10)));
    cache.set("c", "resume", "1", answer("z".repeat(10)));
    expect(["a", "b", "c"].map((g) => cache.holds(g, "resume"))).toEqual([true, true, true]);
  });
});
