import { AwsClient } from "aws4fetch";
import type { Credential } from "@app/sigv4";
import { readResult, type HttpResult } from "./http-client.ts";
import { FULL_KEY, REGION } from "./ledger-server.ts";

export type LedgerResult<T = Record<string, unknown>> = HttpResult<T>;

/** A SigV4-signing JSON client (aws4fetch) for the ledger under test. */
export function ledgerClient(baseUrl: string, key: Credential = FULL_KEY) {
  const aws = new AwsClient({
    accessKeyId: key.accessKeyId,
    secretAccessKey: key.secretAccessKey,
    service: "execute-api",
    region: REGION,
    retries: 0, // aws4fetch retries 5xx by default; tests want to see every answer
  });
  async function send<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    contentType = "application/json",
    headers: Record<string, string> = {},
  ): Promise<LedgerResult<T>> {
    const response = await aws.fetch(`${baseUrl}${path}`, {
      method,
      ...(body === undefined
        ? { headers }
        : {
            body: typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body),
            headers: { "content-type": contentType, ...headers },
          }),
    });
    return readResult<T>(response);
  }
  return {
    send,
    get: <T = Record<string, unknown>>(path: string) => send<T>("GET", path),
    post: <T = Record<string, unknown>>(path: string, body: unknown) => send<T>("POST", path, body),
    /** Every account, following GET /accounts' pages (other test files' too). */
    async allAccounts(): Promise<{ id: string; name: string; [field: string]: unknown }[]> {
      const accounts: { id: string; name: string }[] = [];
      let cursor: string | null = null;
      do {
        const page = await send("GET", `/accounts?limit=1000${cursor ? `&cursor=${cursor}` : ""}`);
        if (page.status !== 200) throw new Error(`GET /accounts: ${page.status} ${page.text}`);
        accounts.push(...(page.body.items as { id: string; name: string }[]));
        cursor = page.body.next_cursor as string | null;
      } while (cursor);
      return accounts;
    },
    /** Creates an account and returns its id. */
    async account(
      currency = "USD",
      type = "asset",
      name = `account ${crypto.randomUUID()}`,
    ): Promise<string> {
      const result = await send("POST", "/accounts", { name, type, currency });
      if (result.status !== 201) throw new Error(`account: ${result.status} ${result.text}`);
      return result.body.id as string;
    },
  };
}

export type LedgerClient = ReturnType<typeof ledgerClient>;
