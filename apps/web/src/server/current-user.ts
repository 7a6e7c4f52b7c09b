import { cookies } from "next/headers";
import { AuthenticationError } from "@app/auth";
import { identify } from "./auth";
import { SESSION_COOKIE } from "./session";

/** The signed-in person of a page request, or null. */
export async function currentUser(): Promise<string | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!token) return null;
  const identity = await identify({ headers: new Headers({ authorization: `Bearer ${token}` }) });
  return identity instanceof AuthenticationError ? null : identity.userId;
}
