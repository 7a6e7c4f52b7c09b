import { webEnv } from "../../../env.ts";
import { authSetup } from "../../../server/auth.ts";
import {
  clearedSessionCookie,
  LOCAL_USER_ID,
  mintSession,
  safeNext,
  sessionCookie,
} from "../../../server/session.ts";

export const dynamic = "force-dynamic";

const redirect = (location: string, cookie: string) =>
  new Response(null, { status: 303, headers: { Location: location, "Set-Cookie": cookie } });

/**
 * Whether a form comes from another site: browsers say where a post comes
 * from (`Origin`). Such a form could sign the person in as whoever that site
 * chose, so that what they type next goes to its account.
 */
function postedFromElsewhere(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  return !URL.canParse(origin) || new URL(origin).host !== request.headers.get("host");
}

/** The local development sign-in: a user id in, a session cookie out. */
export async function POST(request: Request) {
  if (postedFromElsewhere(request)) {
    return Response.json(
      { statusCode: 403, error: "FORBIDDEN", message: "a sign-in form must be sent from this site" },
      { status: 403 },
    );
  }
  const form = await request.formData().catch(() => null);
  const setup = await authSetup();
  if (form?.get("action") === "sign-out") return redirect("/sign-in", clearedSessionCookie);
  if (setup.mode !== "local") {
    return Response.json(
      { statusCode: 404, error: "NOT_FOUND", message: "local sign-in is off" },
      { status: 404 },
    );
  }
  const userId = String(form?.get("user") ?? "").trim();
  const next = safeNext(form?.get("next"));
  if (!LOCAL_USER_ID.test(userId)) {
    return redirect(`/sign-in?error=user&next=${encodeURIComponent(next)}`, clearedSessionCookie);
  }
  // Behind a proxy that ends TLS the request itself is http: PUBLIC_URL says what the person's browser uses.
  const secure = [request.url, webEnv().PUBLIC_URL].some((url) => url?.startsWith("https:"));
  return redirect(next, sessionCookie(await mintSession(setup.localIssuer, userId), secure));
}
