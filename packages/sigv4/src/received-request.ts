/** A request as the server received it. */
export interface ReceivedRequest {
  method: string;
  /** The request target exactly as sent: path and query, still percent-encoded (Node's `req.url`). */
  target: string;
  /**
   * Every line of each header, names in lower case (Node's `req.headersDistinct`):
   * SigV4 joins the values of repeated lines with "," in their order, where
   * `req.headers` would join them with ", " or keep only the first.
   */
  headers: ReceivedHeaders;
  body: Buffer;
}

export type ReceivedHeaders = Record<string, string[] | undefined>;

/** A header as SigV4 reads it: its lines joined with "," in their order. */
export function headerValue(headers: ReceivedHeaders, name: string): string | undefined {
  return headers[name]?.join(",");
}
