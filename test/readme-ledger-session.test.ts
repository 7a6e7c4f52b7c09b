/**
 * The README's ledger session runs as pasted: its shell block, word for word
 * but for the server's address, against a real ledger with the development
 * key in `.data/ledger-credentials.json` of the working directory, through
 * the system's curl (--aws-sigv4 signs every request).
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrate } from "../scripts/database.ts";
import { repoRoot } from "../scripts/env.ts";
import { FULL_KEY, startLedgerServer, type LedgerServer } from "./ledger-server.ts";
import { withDatabaseName } from "./postgres-admin.ts";
import { createScratchDatabase, type ScratchDatabase } from "./scratch-database.ts";

const run = promisify(execFile);

/** curl 7.75 or later signs with --aws-sigv4; .ci/run installs it where it is missing. */
const curlSignsSigV4 = spawnSync("curl", ["--help", "all"], { encoding: "utf8" }).stdout?.includes(
  "--aws-sigv4",
);

let database: ScratchDatabase | undefined;
let ledger: LedgerServer;
let workDir: string;

beforeAll(async () => {
  // A database of its own: its feed holds the session's events only. On the shared one, other files'
  // posts between its "after=end" and its sale could fill the page it reads (seen in CI: 100 of them).
  database = await createScratchDatabase();
  await migrate(database.url);
  ledger = await startLedgerServer(
    withDatabaseName(inject("databaseUrl"), new URL(database.url).pathname.slice(1)),
  );
  workDir = await mkdtemp(path.join(tmpdir(), "readme-ledger-"));
  await mkdir(path.join(workDir, ".data"));
  await writeFile(path.join(workDir, ".data", "ledger-credentials.json"), JSON.stringify([FULL_KEY]));
});

afterAll(async () => {
  await ledger?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
  await database?.drop();
});

/** The first ```sh block after the heading `## Ledger service`. */
async function ledgerSession(): Promise<string> {
  const readme = await readFile(path.join(repoRoot, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Ledger service"));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error("README.md has no shell block under ## Ledger service");
  return block[1]!;
}

describe("the README's ledger session", () => {
  it.runIf(curlSignsSigV4)(
    "funds a wallet, refuses its overdraft, authorizes, captures part, voids, finds a tagged sale and follows the feed, as its comments say",
    async () => {
      const script = (await ledgerSession()).replaceAll("localhost:4000", new URL(ledger.url).host);
      // Each command's answer on a line of its own, to be read in order.
      const { stdout } = await run(
        "bash",
        ["-euo", "pipefail", "-c", script.replaceAll(/^L /gm, "echo; L ")],
        {
          cwd: workDir,
        },
      );
      const answers = stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const errors = answers.filter((a) => "error" in a).map((a) => a.error);
      expect(errors).toEqual(["BALANCE_LIMIT_EXCEEDED"]);
      const [held, ...later] = answers.filter((a) => "pending_debits" in a).slice(-2);
      expect(held).toMatchObject({ balance: -7000, pending_debits: 5000, room_to_debit: 2000 });
      expect(later[0]).toMatchObject({ balance: -3500, pending_debits: 0, room_to_debit: 3500 });
      expect(answers.filter((a) => a.hold_id).map((a) => a.status)).toEqual(["posted"]);
      expect(answers.filter((a) => a.status === "voided")).toHaveLength(1);
      const tagged = answers.find((a) => (a.metadata as { order_id?: string } | undefined)?.order_id);
      const found = answers.find((a) => "next_cursor" in a && (a.items as unknown[]).length === 1);
      expect(found).toEqual({ items: [tagged], next_cursor: null });
      const feed = answers.find((a) => "next_cursor" in a && a !== found)!;
      const posted = (feed.items as { type: string; data: { id: string } }[]).filter(
        (event) => event.type === "transaction.posted",
      );
      expect(posted.map((event) => event.data.id)).toContain(tagged!.id);
    },
  );
});
