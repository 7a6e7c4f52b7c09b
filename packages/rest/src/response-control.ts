/**
 * What a procedure may say about its HTTP response when it is served as REST:
 * headers (Location, a non-JSON Content-Type) and, rarely, a success status
 * other than the one its route declares, among those the route lists as
 * `otherSuccess` (a replay's 200). Lives in the tRPC context; the tRPC
 * transport ignores it.
 */
export interface ResponseControl {
  status?: number;
  headers: Headers;
  /**
   * The version of the data the answer was built from, read with that data,
   * when the procedure knows one: a server may keep the answer for later
   * requests that find the data at that same version.
   */
  dataVersion?: string;
}

export function createResponseControl(): ResponseControl {
  return { headers: new Headers() };
}
