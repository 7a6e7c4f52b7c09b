import { NextResponse, type NextRequest } from "next/server";
import { clerkConfig } from "./env.ts";
import { newNonce, pageContentSecurityPolicy } from "./server/content-security-policy.ts";

/**
 * Pages only (see `config`): gives each page response a Content-Security-Policy
 * with a fresh script nonce. Next.js reads the nonce from the forwarded
 * request's policy and puts it on its own scripts; the layout passes it to
 * Clerk's. It is not an access check: pages hold no user data, the API does.
 */
export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const policy = pageContentSecurityPolicy(nonce, clerkConfig()?.frontendApi);
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  // Everything but documents and static files: those run no inline script and
  // carry the fixed policy of next.config.ts. (The API never reaches Next.js:
  // src/server/web-server.ts serves it.)
  matcher: ["/((?!_next/|api/session$|openapi\\.json$|docs(?:/|$)|\\.well-known/|icon\\.svg$).*)"],
};
