/**
 * What a procedure may say about its HTTP response when it is served as REST:
 * a status other than 200 (201 Created) and headers (Location, Retry-After, a
 * non-JSON Content-Type). Lives in the tRPC context; the tRPC transport ignores it.
 */
export interface ResponseControl {
  status?: number;
  headers: Headers;
  /** Filled by the REST adapter: the result of a procedure that chose a non-JSON Content-Type, sent as it is. */
  rawBody?: string;
}

export function createResponseControl(): ResponseControl {
  return { headers: new Headers() };
}
