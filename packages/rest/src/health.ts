import { errorAnswer, jsonAnswer, type RestResponse } from "./answer.ts";

/** `GET /healthz` of either service: 200 while the database answers, else 503 with the error body. */
export async function healthAnswer(isDatabaseReachable: () => Promise<boolean>): Promise<RestResponse> {
  return (await isDatabaseReachable())
    ? jsonAnswer(200, { status: "ok", database: "ok" })
    : errorAnswer(503, "the database is unreachable");
}
