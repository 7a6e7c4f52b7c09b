import { redirect } from "next/navigation";
import { ClerkSignIn } from "../../clerk/components.tsx";
import { clerkConfig } from "../../env.ts";
import { authSetup } from "../../server/auth.ts";
import { currentUser } from "../../server/current-user.ts";
import { safeNext } from "../../server/session.ts";
import { UserIdField } from "./user-id-field.tsx";

export const dynamic = "force-dynamic";
/** Its own title: a tab or a screen reader tells it from the home page ("Resume"). */
export const metadata = { title: "Sign in — Resume" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const params = await searchParams;
  const next = safeNext(params.next);
  if (clerkConfig()) {
    return (
      <main className="narrow">
        <h1>Sign in</h1>
        <ClerkSignIn next={next} />
      </main>
    );
  }
  if (await currentUser()) redirect(next);
  const setup = await authSetup();

  return (
    <main className="narrow">
      <h1>Sign in</h1>
      {setup.mode === "local" ? (
        <form method="post" action="/api/session" className="card">
          <p className="notice" role="note">
            <strong>Local development sign-in.</strong> There is no password: whoever can reach this server
            can sign in as any user id. Configure Clerk or another OIDC provider for real use.
          </p>
          <input type="hidden" name="next" value={next} />
          <UserIdField defaultValue={params.user ?? ""} error={Boolean(params.error)} />
          <button type="submit">Sign in</button>
        </form>
      ) : (
        <p>
          Sign-in is handled by your identity provider ({setup.mode}); this page is for local development.
        </p>
      )}
    </main>
  );
}
