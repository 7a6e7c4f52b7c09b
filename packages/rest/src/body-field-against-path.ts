/**
 * A body field named like a path parameter (`id`) that holds another value:
 * `"refused"` (400: the ledger, where `/transactions/A/reversal` with
 * `{"id": B}` was meant for B) or `"ignored"`, the path's value winning (the
 * resume API, where server fields sent back in a body are ignored). The REST
 * edge does it and the OpenAPI document says it, from this one setting.
 */
export type BodyFieldAgainstPath = "refused" | "ignored";

export const DEFAULT_BODY_FIELD_AGAINST_PATH: BodyFieldAgainstPath = "ignored";
