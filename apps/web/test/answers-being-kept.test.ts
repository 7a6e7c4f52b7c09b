import { describe, expect, it } from "vitest";
import { createAnswersBeingKept } from "../src/api/answers-being-kept.ts";

/** "ended" once `promise` settles, "waiting" if it has not within `ms`. */
const within = (promise: Promise<void>, ms: number) =>
  Promise.race([
    promise.then(() => "ended"),
    new Promise((resolve) => setTimeout(() => resolve("waiting"), ms)),
  ]);

describe("answers being kept", () => {
  it("has nothing to wait for unless a keeping of that group and key is under way", () => {
    const beingKept = createAnswersBeingKept({ maxWaitMs: 1_000 });
    const kept = beingKept.begin("alice", ["resume"]);
    expect(beingKept.ended("alice", "page")).toBeUndefined();
    expect(beingKept.ended("bob", "resume")).toBeUndefined();
    expect(beingKept.ended("alice", "resume")).toBeDefined();
    kept();
    expect(beingKept.ended("alice", "resume")).toBeUndefined();
    // A write with nothing to keep again announces nothing.
    beingKept.begin("alice", []);
    expect(beingKept.ended("alice", "resume")).toBeUndefined();
  });

  it("ends when every keeping of the key under way has ended", async () => {
    const beingKept = createAnswersBeingKept({ maxWaitMs: 5_000 });
    const first = beingKept.begin("alice", ["resume", "page"]);
    const second = beingKept.begin("alice", ["resume"]);
    const ended = beingKept.ended("alice", "resume")!;
    first();
    expect(await within(ended, 50)).toBe("waiting");
    second();
    expect(await within(ended, 50)).toBe("ended");
  });

  it("ends after maxWaitMs when a keeping never says it ended", async () => {
    const beingKept = createAnswersBeingKept({ maxWaitMs: 100 });
    beingKept.begin("alice", ["resume"]);
    const ended = beingKept.ended("alice", "resume")!;
    expect(await within(ended, 20)).toBe("waiting");
    expect(await within(ended, 500)).toBe("ended");
  });
});
