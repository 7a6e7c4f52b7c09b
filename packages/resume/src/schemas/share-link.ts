import { z } from "zod";
import { text } from "@app/rest/fields";

export const SHARE_LINK_MAX_DAYS = 365;
/** A link's name: who or what it is for. */
export const SHARE_LINK_NAME_LENGTH = 100;

/** Who or what a link is for: trimmed; empty or null is no name (null). */
const linkName = () =>
  text()
    .trim()
    .max(SHARE_LINK_NAME_LENGTH, `must be at most ${SHARE_LINK_NAME_LENGTH} characters`)
    .nullable()
    .transform((v) => v || null)
    .meta({
      description:
        "Who or what the link is for (`Acme, Jane Doe`), to tell it from the version's other links: shown only " +
        "to you, never on its page. Empty or null: not named.",
    });

export const shareLinkInput = z
  .strictObject({
    id: z.uuid("must be a uuid"),
    expires_in_days: z
      .number(`must be a whole number of days from 1 to ${SHARE_LINK_MAX_DAYS}`)
      .int(`must be a whole number of days from 1 to ${SHARE_LINK_MAX_DAYS}`)
      .min(1, "must be at least 1")
      .max(SHARE_LINK_MAX_DAYS, `must be at most ${SHARE_LINK_MAX_DAYS}`)
      .nullish()
      .transform((v) => v ?? null)
      .meta({ description: "Days until the link stops working; left out or null: it works until revoked." }),
    name: linkName()
      .optional()
      .transform((v) => v ?? null),
  })
  .meta({ title: "ShareLinkInput" });

/** A new name for a link: `name` must be sent (null clears it), so that `{}` renames nothing. */
export const shareLinkRenameInput = z
  .strictObject({ id: z.uuid("must be a uuid"), name: linkName() })
  .meta({ title: "ShareLinkRename" });

export const shareLinkOutput = z
  .object({
    id: z.uuid(),
    url: z.url().meta({ format: "uri", description: "The public page: `<PUBLIC_URL>/r/<slug>`." }),
    name: z
      .string()
      .nullable()
      .meta({ description: "Whom the link is for, as its owner named it; null: not named." }),
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime().nullable(),
    views: z.number().int().meta({ description: "Pages answered (GET /r/{slug}, 200)." }),
    last_viewed_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: "When its page was last answered (counted with `views`); null: never opened." }),
  })
  .meta({ id: "ShareLink" });

export type ShareLink = z.output<typeof shareLinkOutput>;
