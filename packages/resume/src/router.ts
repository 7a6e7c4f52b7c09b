import { COLLECTIONS } from "./collections.ts";
import { collectionRouter } from "./routers/collection-router.ts";
import { profileRouter } from "./routers/profile-router.ts";
import { resumeRouter } from "./routers/resume-router.ts";
import { shareLinkRouter } from "./routers/share-link-router.ts";
import { tailoredVersionRouter } from "./routers/tailored-version-router.ts";
import { tokenRouter } from "./routers/token-router.ts";
import { router } from "./trpc.ts";

const [experience, education, skills, certifications, hobbies, goals] = COLLECTIONS;

export const resumeAppRouter = router({
  profile: profileRouter,
  experience: collectionRouter(experience),
  education: collectionRouter(education),
  skills: collectionRouter(skills),
  certifications: collectionRouter(certifications),
  hobbies: collectionRouter(hobbies),
  goals: collectionRouter(goals),
  resume: resumeRouter,
  tokens: tokenRouter,
  versions: tailoredVersionRouter,
  links: shareLinkRouter,
});

export type ResumeAppRouter = typeof resumeAppRouter;
