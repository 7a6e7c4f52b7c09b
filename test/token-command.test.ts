import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { createTokenVerifier, resolveAuthSetup } from "@app/auth";
import { env, repoRoot } from "../scripts/env.ts";

const run = promisify(execFile);
const tsx = createRequire(import.meta.url).resolve("tsx/cli");
const tokenCommand = (...args: string[]) => tokenCommandWith({}, ...args);
const tokenCommandWith = (settings: Record<string, string>, ...args: string[]) =>
  run(process.execPath, [tsx, "scripts/token.ts", ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...settings },
  });
/** How a failed run ended: its exit code and output. */
const failure = (running: Promise<unknown>) =>
  running.then(
    () => null,
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

describe("npm run token", () => {
  it("prints one token and nothing else, which the app's verifier accepts", async () => {
    const { stdout, stderr } = await tokenCommand("--user", "alice", "--ttl", "120");
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const claims = decodeJwt(stdout.trim());
    expect(claims.exp! - claims.iat!).toBe(120);

    const setup = await resolveAuthSetup({}, env.DATA_DIR);
    expect(await createTokenVerifier(setup.verifier)(`Bearer ${stdout.trim()}`)).toEqual({ userId: "alice" });
  });

  it("fails with usage on stderr and exit code 2 without --user", async () => {
    const error = await failure(tokenCommand());
    expect(error?.code).toBe(2);
    expect(error?.stdout).toBe("");
    expect(error?.stderr).toMatch(/usage: npm run -s token -- --user <id>/);
  });

  it("fails with one line saying why, not a stack, when an issuer is named with no key", async () => {
    const error = await failure(tokenCommandWith({ AUTH_ISSUER: "https://idp.example" }, "--user", "alice"));
    expect([error?.code, error?.stdout]).toEqual([2, ""]);
    expect(error?.stderr).toMatch(/^AUTH_ISSUER is set but no identity provider is: .*\n$/);
  });
});
