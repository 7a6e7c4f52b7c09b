import { createHash, createHmac } from "node:crypto";
import net from "node:net";
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
 * derived once per day) over keep-alive connections that write each request
 * in one piece and read the answer by its Content-Length. aws4fetch's
 * WebCrypto and fetch cost the load generator 1.2-1.7 ms of CPU per post on
 * the two cores the server also runs on, node:http's client 0.27 ms; this
 * costs less again, so the bench measures the server rather than its client
 * (autocannon's approach). Every request is fully signed (host, x-amz-date,
 * x-amz-content-sha256 and content-type) and verified. The canonical request
 * is built here, not taken from packages/sigv4's verifier, so that a client
 * and the server it measures cannot share one mistake.
 */
export function createSignedHttpClient(
  baseUrl: string,
  key: AccessKey,
  { region, service = "execute-api" }: { region: string; service?: string },
) {
  const url = new URL(baseUrl);
  const connections = createConnectionPool(url.hostname, Number(url.port));
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

    let head = `${method} ${path} HTTP/1.1\r\n`;
    for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
    return connections.send(`${head}\r\n${text}`);
  }

  return { request, close: () => connections.close() };
}

interface Connection {
  socket: net.Socket;
  /** Writes one whole request; resolves with its answer. */
  send(text: string): Promise<SignedResponse>;
}

/** Keep-alive HTTP/1.1 connections, one request in flight on each, opened as needed. */
function createConnectionPool(host: string, port: number) {
  const idle: Connection[] = [];
  const all = new Set<net.Socket>();

  function open(): Connection {
    const socket = net.connect({ host, port, noDelay: true });
    all.add(socket);
    let waiting: { resolve(response: SignedResponse): void; reject(error: Error): void } | null = null;
    let received: Buffer = Buffer.alloc(0);
    /** Ends this connection for good: it is never handed out again. */
    const fail = (error: Error) => {
      all.delete(socket);
      const at = idle.indexOf(connection);
      if (at >= 0) idle.splice(at, 1);
      socket.destroy();
      waiting?.reject(error);
      waiting = null;
    };
    const connection: Connection = {
      socket,
      send(text) {
        return new Promise((resolve, reject) => {
          waiting = { resolve, reject };
          socket.write(text);
        });
      },
    };
    socket.on("data", (chunk: Buffer) => {
      if (!waiting) return fail(new Error("the server sent bytes nobody asked for"));
      received = received.length ? Buffer.concat([received, chunk]) : chunk;
      const headEnd = received.indexOf("\r\n\r\n");
      if (headEnd < 0) return;
      const head = received.subarray(0, headEnd).toString("latin1");
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (!length) return fail(new Error(`an answer without Content-Length: ${head}`));
      const end = headEnd + 4 + Number(length[1]);
      if (received.length < end) return;
      const done = waiting;
      waiting = null;
      const status = Number(head.slice(9, 12));
      const body = received.subarray(headEnd + 4, end).toString("utf8");
      received = received.subarray(end);
      // A server closes idle keep-alive connections (node:http after 5 s), and says so on a last answer.
      if (/\r\nconnection: *close/i.test(head)) fail(new Error("closed by the server"));
      else idle.push(connection);
      done.resolve({ status, body });
    });
    socket.on("error", fail);
    socket.on("close", () => fail(new Error("the server closed the connection")));
    return connection;
  }

  return {
    send: (text: string) => (idle.pop() ?? open()).send(text),
    close() {
      for (const socket of all) socket.destroy();
    },
  };
}
