import { AsyncLocalStorage } from "node:async_hooks";

/** What a server knows of the request it is answering, for its log lines and metrics. */
export interface RequestRecord {
  /** X-Request-Id: the client's when it sent a usable one, else a new one. */
  id: string;
  method: string;
  /** The route's template (`/me/{collection}/{id}`), never the path with its ids: set by the app. */
  route: string;
  /** Who asked (the resume user, the ledger key's principal), when known: set by the app. */
  user?: string;
  /** The status the server answered on the socket itself, the request cut short (408). */
  refusedWith?: number;
}

const requests = new AsyncLocalStorage<RequestRecord>();

/** The request whose context (runWithRequest) this runs in, if any: the log lines written here name it. */
export const currentRequest = (): RequestRecord | undefined => requests.getStore();

export const runWithRequest = <T>(record: RequestRecord, work: () => T): T => requests.run(record, work);

const USABLE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The client's X-Request-Id when it is 1-128 visible ASCII characters, else a new one. */
export function requestIdFrom(header: string | string[] | undefined, newId: () => string): string {
  return typeof header === "string" && USABLE_REQUEST_ID.test(header) ? header : newId();
}
