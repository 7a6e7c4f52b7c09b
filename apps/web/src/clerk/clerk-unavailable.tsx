/** What a person sees when Clerk's script or service cannot be reached. */
export function ClerkUnavailable() {
  return (
    <p role="alert" className="form-error">
      Sign-in is unavailable: Clerk, the sign-in service, cannot be reached. Reload the page to try again;
      nothing you typed is lost.
    </p>
  );
}
