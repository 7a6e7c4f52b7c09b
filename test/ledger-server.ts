import type { AddressInfo } from "node:net";
import { inject } from "vitest";
import { createDatabase } from "@app/db";
import type { Credential } from "@app/sigv4";
import { createLedgerServer } from "../apps/ledger/src/server.ts";
import { capturedLogger } from "./captured-logger.ts";

export const REGION = "us-east-1";

/** Keys of the ledger under test: one with every action, one that may only read, and the others below. */
export const FULL_KEY: Credential = {
  accessKeyId: "AKIATESTFULLACCESS01",
  secretAccessKey: "test-secret-full-access-0123456789",
  principal: "test-full",
  actions: ["ledger:CreateAccount", "ledger:PostTransaction", "ledger:Read"],
};
export const READ_ONLY_KEY: Credential = {
  accessKeyId: "AKIATESTREADONLY0001",
  secretAccessKey: "test-secret-read-only-0123456789",
  principal: "test-reader",
  actions: ["ledger:Read"],
};
/** Another service: may post, nothing else (not even read). */
export const POSTER_KEY: Credential = {
  accessKeyId: "AKIATESTPOSTERONLY01",
  secretAccessKey: "test-secret-poster-only-0123456789",
  principal: "test-poster",
  actions: ["ledger:PostTransaction"],
};
/** FULL_KEY's principal with a second key pair, as after a rotation. */
export const ROTATED_FULL_KEY: Credential = {
  ...FULL_KEY,
  accessKeyId: "AKIATESTFULLROTATED1",
  secretAccessKey: "test-secret-full-rotated-0123456789",
};
/** A second service with every action. */
export const OTHER_FULL_KEY: Credential = {
  ...FULL_KEY,
  accessKeyId: "AKIATESTOTHERSERVICE",
  secretAccessKey: "test-secret-other-service-0123456789",
  principal: "test-other",
};

export interface LedgerServer {
  url: string;
  warnings: string[];
  /** Every line it logged, parsed. */
  logLines: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** The ledger's real HTTP server on a free port, against this run's database (or `databaseUrl`). */
export async function startLedgerServer(databaseUrl = inject("databaseUrl")): Promise<LedgerServer> {
  const db = createDatabase({
    connectionString: databaseUrl,
    poolSize: 20,
    preparedStatements: inject("preparedStatements"),
  });
  const { logger, lines } = capturedLogger("ledger");
  const { server } = createLedgerServer({
    db,
    credentials: new Map(
      [FULL_KEY, READ_ONLY_KEY, POSTER_KEY, ROTATED_FULL_KEY, OTHER_FULL_KEY].map((k) => [k.accessKeyId, k]),
    ),
    region: REGION,
    logger,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get warnings() {
      return lines.filter((line) => line.level === "warn").map((line) => String(line.msg));
    },
    logLines: lines,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await db.$disconnect();
    },
  };
}
