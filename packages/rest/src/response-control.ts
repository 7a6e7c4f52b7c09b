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
}

export function createResponseControl(): ResponseControl {
  return { headers: new Headers() };
}
