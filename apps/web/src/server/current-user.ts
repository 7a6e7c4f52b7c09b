import { cookies } from "next/headers";
import { AuthenticationError } from "@app/auth";
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
      if (error instanceof AuthenticationError) return null;
      throw error;
    },
  );
}
