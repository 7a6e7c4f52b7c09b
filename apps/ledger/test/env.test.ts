import { describe, expect, it } from "vitest";
import { ConfigurationError } from "@app/service";
import { readLedgerEnv } from "../src/env.ts";

const DATABASE_URL = "postgresql://app@127.0.0.1:5432/app";
/** An environment of these variables alone. */
const only = (variables: Record<string, string>) => variables as NodeJS.ProcessEnv;

describe("the ledger's configuration", () => {
  it("takes an empty variable as unset: its default, never port 0 on every interface", () => {
    const env = readLedgerEnv(
      only({ DATABASE_URL, HOST: "", LEDGER_PORT: "", SHUTDOWN_DRAIN_MS: "", LOG_LEVEL: "" }),
    );
    expect([env.HOST, env.LEDGER_PORT, env.SHUTDOWN_DRAIN_MS, env.LOG_LEVEL]).toEqual([
      "127.0.0.1",
      4000,
      10_000,
      "info",
    ]);
  });

  it("refuses an empty credentials file rather than generate a development key", () => {
    expect(() => readLedgerEnv(only({ DATABASE_URL, LEDGER_CREDENTIALS_FILE: "" }))).toThrow(
      "invalid ledger configuration: LEDGER_CREDENTIALS_FILE: must name the credentials file, or be left unset",
    );
  });

  it("names each wrong variable and what is wrong with it, on one line", () => {
    const read = () =>
      readLedgerEnv(only({ DATABASE_URL: "", DATABASE_POOL_SIZE: "abc", LEDGER_REGION: "US_EAST" }));
    expect(read).toThrow(ConfigurationError);
    expect(read).toThrow(
      /^invalid ledger configuration: DATABASE_URL: .+; DATABASE_POOL_SIZE: .+; LEDGER_REGION: [^\n]+$/,
    );
  });
});
