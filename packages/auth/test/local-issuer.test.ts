import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadLocalIssuer } from "../src/index.ts";

describe("loadLocalIssuer", () => {
  it("generates its key once and reuses it on later loads", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "issuer-"));
    const first = await loadLocalIssuer({ dataDir });
    const second = await loadLocalIssuer({ dataDir });
    expect(second.jwks).toEqual(first.jwks);
    expect(first.jwks.keys[0]).not.toHaveProperty("d");
  });

  it("agrees on one key when several processes load it for the first time at once", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "issuer-"));
    const issuers = await Promise.all(Array.from({ length: 8 }, () => loadLocalIssuer({ dataDir })));
    const kids = new Set(issuers.map((i) => i.jwks.keys[0]!.kid));
    expect(kids.size).toBe(1);
  });
});
