import type { LocalIssuer } from "@app/auth";

/** The editor's session: a token of the local issuer in an httpOnly cookie. */
export const SESSION_COOKIE = "resume_session";
const SESSION_TTL_SECONDS = 8 * 60 * 60;

/** User ids the local sign-in accepts: what a person would type, nothing that needs escaping. */
export const LOCAL_USER_ID = /^[A-Za-z0-9._@-]{1,100}$/;

export function sessionCookie(token: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_SECONDS}${secure ? "; Secure" : ""}`;
}

export const clearedSessionCookie = `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;

export function mintSession(issuer: LocalIssuer, userId: string): Promise<string> {
  return issuer.mintToken(userId, { ttlSeconds: SESSION_TTL_SECONDS });
}

/** The session token of a Cookie header, if any. */
export function sessionToken(cookieHeader: string | null): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE && value.length) return value.join("=");
  }
  return undefined;
}

/** Only same-site paths: a `next` parameter must not send a person elsewhere. */
export function safeNext(next: unknown): string {
  return typeof next === "string" && /^\/(?!\/)[\w\-./?=&%]*$/.test(next) ? next : "/editor";
}
