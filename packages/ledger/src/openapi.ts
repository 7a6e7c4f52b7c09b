import { buildOpenApiDocument } from "@app/rest";
import { ledgerRouter } from "./routers/ledger-router.ts";

export const LEDGER_API_VERSION = "1.0.0";

/**
 * A body `id` naming another transaction or account than the path's is a 400,
 * not overridden: `/transactions/A/reversal` with `{"id": B}` was meant for B.
 * The REST edge refuses it, and the document says so.
 */
export const LEDGER_BODY_FIELD_AGAINST_PATH = "refused";

/** The OpenAPI 3.1 document of the ledger, with the SigV4 scheme in API Gateway's convention. */
export const ledgerOpenApiDocument = buildOpenApiDocument(ledgerRouter, {
  title: "Ledger service",
  version: LEDGER_API_VERSION,
  description:
    "Double-entry bookkeeping: accounts, immutable balanced transactions (idempotent by idempotency_key), " +
    "balances summed from entries. Amounts are integers in the currency's minor unit; positive is a debit. " +
    "Requests are signed with AWS Signature Version 4 (service execute-api).",
  license: { name: "Proprietary (private package; see README)", identifier: "LicenseRef-Proprietary" },
  contact: { name: "The ledger service's maintainers (see README.md)" },
  securitySchemes: {
    sigv4: {
      type: "apiKey",
      name: "Authorization",
      in: "header",
      description:
        "AWS Signature Version 4 (AWS4-HMAC-SHA256), service execute-api; host and x-amz-date signed.",
      "x-amazon-apigateway-authtype": "awsSigv4",
    },
  },
  bodyFieldAgainstPath: LEDGER_BODY_FIELD_AGAINST_PATH,
  commonErrors: {
    400: "AuthorizationHeaderMalformed, or invalid input.",
    403: "MissingAuthenticationToken, InvalidAccessKeyId, SignatureDoesNotMatch, RequestTimeTooSkewed or AccessDenied (also in x-amzn-ErrorType).",
    503: "The database is unavailable.",
  },
});
