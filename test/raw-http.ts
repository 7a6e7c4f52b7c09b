import net from "node:net";

export interface RawRequest {
  /** The request line as sent, e.g. `TRACE / HTTP/1.1` or `GET http://evil.example/x HTTP/1.1`. */
  requestLine: string;
  /** Header lines in order, repeats kept; `Host` is the server's unless given (or `withoutHost`). */
  headers?: [string, string][];
  withoutHost?: boolean;
  body?: string;
}

export interface RawAnswer {
  status: number;
  /** Lower-case names; the values of a repeated header joined with ", ". */
  headers: Map<string, string>;
  body: string;
}

/**
 * One request written byte for byte on a new connection, for what fetch will
 * not send: TRACE (a forbidden method in the Fetch standard), an absolute-form
 * or `*` target, a header sent as two lines.
 */
export function sendRaw(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const { hostname, port, host } = new URL(baseUrl);
  const headers = request.headers ?? [];
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  const body = request.body ?? "";
  const lines = [
    request.requestLine,
    ...(has("host") || request.withoutHost ? [] : [`Host: ${host}`]),
    ...headers.map(([name, value]) => `${name}: ${value}`),
    ...(body === "" || has("content-length") ? [] : [`Content-Length: ${Buffer.byteLength(body)}`]),
    "Connection: close",
  ];
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks).toString("utf8")));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) throw new Error(`no complete answer: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = "", ...headerLines] = text.slice(0, end).split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  const rest = text.slice(end + 4);
  return { status, headers, body: headers.get("transfer-encoding") === "chunked" ? unchunk(rest) : rest };
}

/** A chunked body's data (the chunk sizes count bytes). */
function unchunk(text: string): string {
  let rest = Buffer.from(text, "utf8");
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = rest.indexOf("\r\n");
    const size = parseInt(rest.subarray(0, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) return Buffer.concat(parts).toString("utf8");
    parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    rest = rest.subarray(lineEnd + 2 + size + 2);
  }
}
