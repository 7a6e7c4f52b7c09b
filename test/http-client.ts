export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A response as tests read it: the body parsed when it is JSON, and its text. */
export async function readResult<T>(response: Response): Promise<HttpResult<T>> {
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** A small JSON client for REST tests: real HTTP, nothing mocked. */
export function httpClient(baseUrl: string, defaultHeaders: Record<string, string> = {}) {
  async function send<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpResult<T>> {
    const init: RequestInit = { method, headers: { ...defaultHeaders, ...headers } };
    if (body !== undefined) {
      // Text and bytes as they are (a test's malformed body), anything else as JSON.
      init.body =
        typeof body === "string"
          ? body
          : body instanceof Uint8Array
            ? Buffer.from(body)
            : JSON.stringify(body);
      init.headers = { "content-type": "application/json", ...init.headers };
    }
    return readResult<T>(await fetch(`${baseUrl}${path}`, init));
  }
  return {
    send,
    get: <T = Record<string, unknown>>(path: string, headers?: Record<string, string>) =>
      send<T>("GET", path, undefined, headers),
    post: <T = Record<string, unknown>>(path: string, body: unknown, headers?: Record<string, string>) =>
      send<T>("POST", path, body, headers),
    put: <T = Record<string, unknown>>(path: string, body: unknown, headers?: Record<string, string>) =>
      send<T>("PUT", path, body, headers),
    delete: <T = Record<string, unknown>>(path: string, headers?: Record<string, string>) =>
      send<T>("DELETE", path, undefined, headers),
  };
}

export type HttpClient = ReturnType<typeof httpClient>;
