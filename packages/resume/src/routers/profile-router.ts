import { DomainError, ETAG_HEADER, versionCheckOf } from "@app/rest";
import { profileInput, profileOutput, type Profile } from "../schemas/profile.ts";
import { getProfile, putProfile } from "../store/profile-store.ts";
import { router, userProcedure } from "../trpc.ts";

const tags = ["profile"];

export const profileRouter = router({
  get: userProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/me/profile",
        tags,
        summary: "Get the caller's profile",
        description: "The profile the caller stored with PUT; 404 before the first PUT.",
      },
      rest: { successHeaders: ETAG_HEADER, errors: { 404: "No profile stored yet: PUT one first." } },
    })
    .output(profileOutput)
    .query(async ({ ctx }) => {
      const profile = await getProfile(ctx.db, ctx.userId);
      if (!profile) throw new DomainError(404, "no profile yet; PUT /me/profile creates it");
      return profile;
    }),

  put: userProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: "/me/profile",
        tags,
        summary: "Create or replace the caller's profile",
        description:
          "An upsert: never 404. Optional fields left out are cleared. " +
          "With If-Match (the ETag a read gave), it writes only over that version; with If-None-Match: *, only if there is no profile yet.",
      },
      rest: { conditional: true },
      // One row written, so one move of the version; the answer is the whole profile.
      wholeResumeChange: (profile: Profile) => (resume) => ({ ...resume, profile }),
    })
    .input(profileInput)
    .output(profileOutput)
    .mutation(({ ctx, input }) =>
      putProfile(ctx.db, ctx.userId, input, versionCheckOf(ctx.preconditions) ?? undefined),
    ),
});
