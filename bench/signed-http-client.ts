import { createHash, createHmac } from "node:crypto";
import http from "node:http";
import { deriveSigningKey } from "@app/sigv4";

export interface AccessKey {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SignedResponse {
  status: number;
  body: string;
}

/**
 * The benchmark's SigV4 client: node:crypto (synchronous HMAC, the signing key
 * derived once per day) over keep-alive node:http. aws4fetch's WebCrypto and
 * fetch cost the load generator 1.2-1.7 ms of CPU per post on the two
 * cores the server also runs on; this costs a fraction of that, so the bench
 * measures the server rather than its client. Every request is fully signed
 * (host, x-amz-date, x-amz-content-sha256 and content-type) and verified. The
 * canonical request is built here, not taken from packages/sigv4's verifier,
 * so that a client and the server it measures cannot share one mistake.
 */
export function createSignedHttpClient(
  baseUrl: string,
  key: AccessKey,
  { region, service = "execute-api", connections }: { region: string; service?: string; connections: number },
) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let keyDate = "";
  let signingKey: Buffer = Buffer.alloc(0);

  function keyFor(date: string): Buffer {
    if (date !== keyDate) {
      signingKey = deriveSigningKey(key.secretAccessKey, date, region, service);
      keyDate = date;
    }
    return signingKey;
  }

  /** `path` is already canonical (no characters to encode, query sorted). */
  function request(method: string, path: string, body?: unknown): Promise<SignedResponse> {
    const text = body === undefined ? "" : JSON.stringify(body);
    const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, "");
    const date = amzDate.slice(0, 8);
    const payloadHash = createHash("sha256").update(text).digest("hex");
    const [pathname = "/", query = ""] = path.split("?");
    const headers: Record<string, string> = {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      host: url.host,
      "x-amz-content-sha256": payloadHash,
      "x-amz-date": amzDate,
    };
    const names = Object.keys(headers).sort();
    const signedHeaders = names.join(";");
    const canonicalRequest = [
      method,
      pathname,
      query,
      names.map((name) => `${name}:${headers[name]}\n`).join(""),
      signedHeaders,
      payloadHash,
    ].join("\n");
    const scope = `${date}/${region}/${service}/aws4_request`;
    const stringToSign = [
      "AWS4-HMAC-SHA256",
      amzDate,
      scope,
      createHash("sha256").update(canonicalRequest).digest("hex"),
    ].join("\n");
    const signature = createHmac("sha256", keyFor(date)).update(stringToSign).digest("hex");
    headers.authorization = `AWS4-HMAC-SHA256 Credential=${key.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(text));

    return new Promise((resolve, reject) => {
      const outgoing = http.request(
        { agent, host: url.hostname, port: url.port, method, path, headers },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
          );
          response.on("error", reject);
        },
      );
      outgoing.on("error", reject);
      outgoing.end(text);
    });
  }

  return { request, close: () => agent.destroy() };
}
