/** The local sign-in's account corner: who is signed in, and a sign-out button. */
export function LocalAccount({ userId }: { userId: string }) {
  return (
    <div className="row account">
      {/* On a phone only the id shows (cut short if need be), so that the top bar keeps to one row. */}
      <p className="account-name" title={userId}>
        <span className="account-label">Signed in as </span>
        <strong>{userId}</strong>
      </p>
      <form method="post" action="/api/session">
        <input type="hidden" name="action" value="sign-out" />
        <button type="submit" className="secondary">
          Sign out
        </button>
      </form>
    </div>
  );
}
