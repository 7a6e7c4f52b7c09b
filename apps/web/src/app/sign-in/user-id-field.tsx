"use client";

/** What the local sign-in accepts as a user id (LOCAL_USER_ID in server/session.ts), said to the person. */
const USER_ID_RULE = "Letters, digits and . _ @ - only (no spaces), up to 100 characters.";

/**
 * The user id of the local development sign-in. The browser's own message
 * for a value that misses the pattern ("Please match the requested format.")
 * does not say what the format is, so the field says it: in its title, in a
 * hint under it that screen readers read with it, and as the message itself.
 */
export function UserIdField({ defaultValue, error }: { defaultValue: string; error: boolean }) {
  return (
    <>
      <label htmlFor="user">User id</label>
      <input
        id="user"
        name="user"
        required
        autoComplete="username"
        defaultValue={defaultValue}
        pattern="[A-Za-z0-9._@\-]{1,100}"
        title={USER_ID_RULE}
        aria-describedby={error ? "user-hint user-error" : "user-hint"}
        onInvalid={(event) => {
          const input = event.currentTarget;
          input.setCustomValidity(
            input.validity.patternMismatch ? `A user id: ${USER_ID_RULE.toLowerCase()}` : "",
          );
        }}
        // A changed value is judged afresh (a custom message would keep it invalid).
        onInput={(event) => event.currentTarget.setCustomValidity("")}
      />
      <p id="user-hint" className="field-hint">
        {USER_ID_RULE}
      </p>
      {error && (
        <p id="user-error" className="field-error">
          That user id cannot be used. {USER_ID_RULE}
        </p>
      )}
    </>
  );
}
