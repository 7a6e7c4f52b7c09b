/**
 * Requests signed by the AWS SDK's signer (`@smithy/signature-v4`) and sent
 * byte for byte over a socket, as clients send what node:http would rewrite:
 * a header in several lines, and paths the signer normalises (repeated
 * slashes, `.` and `..` segments) sent as written.
 */
import net from "node:net";
import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerClient } from "../../../test/ledger-client.ts";
import { FULL_KEY, REGION, startLedgerServer, type LedgerServer } from "../../../test/ledger-server.ts";

let ledger: LedgerServer;
let account: string;

beforeAll(async () => {
  ledger = await startLedgerServer();
  account = await ledgerClient(ledger.url).account();
});

afterAll(async () => {
  await ledger?.stop();
});

const signer = new SignatureV4({
  credentials: { accessKeyId: FULL_KEY.accessKeyId, secretAccessKey: FULL_KEY.secretAccessKey },
  region: REGION,
  service: "execute-api",
  sha256: Sha256,
});

/**
 * Signs a GET of `path` with `lines` (the values of a header's lines joined
 * with "," as SigV4 reads them) and sends it as written: `path` unnormalised,
 * each header of `sentLines` (by default the signed ones) as one line per value.
 */
async function sendRaw(path: string, lines: Record<string, string[]> = {}, sentLines = lines) {
  const { hostname, port, host } = new URL(ledger.url);
  const signed = await signer.sign({
    method: "GET",
    protocol: "http:",
    hostname,
    port: Number(port),
    path,
    query: {},
    headers: {
      host,
      ...Object.fromEntries(Object.entries(lines).map(([name, values]) => [name, values.join(",")])),
    },
  });
  let head = `GET ${path} HTTP/1.1\r\n`;
  for (const [name, value] of Object.entries(signed.headers)) {
    if (!(name in lines)) head += `${name}: ${value}\r\n`;
  }
  for (const [name, values] of Object.entries(sentLines))
    for (const value of values) head += `${name}: ${value}\r\n`;
  head += "connection: close\r\n\r\n";
  const text = await new Promise<string>((resolve, reject) => {
    let received = "";
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    socket.on("data", (chunk) => (received += chunk.toString()));
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
  });
  const [status, ...rest] = text.split("\r\n\r\n");
  return {
    status: Number(status!.slice(9, 12)),
    body: JSON.parse(rest.join("\r\n\r\n")) as Record<string, unknown>,
  };
}

describe("SigV4 as the AWS SDK signs it, sent as written", () => {
  it("accepts a signed header sent in several lines, its values in their order", async () => {
    const answer = await sendRaw("/accounts", { "x-trace": ["value4", "value1", "value3"] });
    expect(answer.status).toBe(200);
    // The same lines in another order are another request than the one signed.
    const reordered = await sendRaw(
      "/accounts",
      { "x-trace": ["value4", "value1"] },
      { "x-trace": ["value1", "value4"] },
    );
    expect(reordered.status).toBe(403);
    expect(reordered.body).toMatchObject({ error: "SignatureDoesNotMatch" });
  });

  it("accepts paths the signer normalises, and routes them by the normalised path", async () => {
    for (const path of [`//accounts/${account}`, `/./accounts/${account}`, `/x/../accounts/${account}`]) {
      const answer = await sendRaw(path);
      expect(answer.status, path).toBe(200);
      expect(answer.body.id, path).toBe(account);
    }
    expect((await sendRaw("//accounts")).status).toBe(200);
  });

  it("answers an empty id (`/accounts//balance`) as the resource it names, not with a signature error", async () => {
    const answer = await sendRaw("/accounts//balance");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, error: "BAD_REQUEST" });
  });
});
