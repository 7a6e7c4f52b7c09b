import { z } from "zod";
import { requiredString } from "./fields.ts";

/** `resume:write` includes reading. */
export const TOKEN_SCOPES = ["resume:read", "resume:write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const accessTokenFields = z.strictObject({
  name: requiredString(100),
  scopes: z
    .array(z.enum(TOKEN_SCOPES))
    .length(1, 'must be ["resume:read"] or ["resume:write"]')
    .meta({ description: '`["resume:read"]`, or `["resume:write"]` (which includes reading).' }),
  expires_in_days: z
    .number("must be a whole number of days from 1 to 365")
    .int("must be a whole number of days from 1 to 365")
    .min(1, "must be at least 1")
    .max(365, "must be at most 365")
    .default(90),
});

export const accessTokenInput = accessTokenFields.meta({ title: "AccessTokenInput" });

export const accessTokenOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    scopes: z.array(z.enum(TOKEN_SCOPES)),
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "AccessToken" });

export const createdAccessTokenOutput = accessTokenOutput
  .extend({
    token: z.string().meta({ description: "The token (`rsm_...`): shown only in this answer." }),
  })
  .meta({ id: "CreatedAccessToken" });

export type AccessToken = z.output<typeof accessTokenOutput>;
export type AccessTokenInput = z.output<typeof accessTokenFields>;
