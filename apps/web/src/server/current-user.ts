import { cookies } from "next/headers";
import { AuthenticationError, IdentityProviderUnavailable } from "@app/auth";
import { tokenVerifier } from "./auth.ts";
import { SESSION_COOKIE } from "./session.ts";

/** The signed-in person of a page request, or null. */
export async function currentUser(): Promise<string | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!token) return null;
  const verify = await tokenVerifier();
  return verify(`Bearer ${token}`).then(
    (identity) => identity.userId,
    (error: unknown) => {
      // A page cannot answer 503 as the API does: a token that cannot be checked now reads as none
      // (the sign-in page), not as a 500.
      if (error instanceof AuthenticationError || error instanceof IdentityProviderUnavailable) return null;
      throw error;
    },
  );
}
