import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCredentials } from "../src/credentials.ts";

/** A credentials file that cannot be used is said in one sentence naming it (the ledger's start-up line). */
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "credentials-"));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

const ACTIONS = ["ledger:Read"] as const;

async function fileHolding(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

describe("loadCredentials", () => {
  it("reads each key by its id", async () => {
    const key = {
      accessKeyId: "AKIATESTKEY000001",
      secretAccessKey: "s".repeat(20),
      principal: "p",
      actions: ["ledger:Read"],
    };
    const store = await loadCredentials(await fileHolding("good.json", JSON.stringify([key])), ACTIONS);
    expect(store.get(key.accessKeyId)).toEqual(key);
  });

  it("says which file cannot be read, is not JSON, or is not a credentials file", async () => {
    const missing = path.join(dir, "missing.json");
    await expect(loadCredentials(missing, ACTIONS)).rejects.toThrow(
      new Error(`cannot read ${missing}: there is no such file`),
    );
    const notJson = await fileHolding("not-json.json", "[{");
    await expect(loadCredentials(notJson, ACTIONS)).rejects.toThrow(
      new Error(`${notJson} is not a credentials file: it is not JSON`),
    );
    const wrong = await fileHolding("wrong.json", JSON.stringify([{ accessKeyId: "x" }]));
    await expect(loadCredentials(wrong, ACTIONS)).rejects.toThrow(`${wrong} is not a credentials file:`);
  });
});
