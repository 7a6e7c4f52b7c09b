/** The local sign-in's account corner: who is signed in, and a sign-out button. */
export function LocalAccount({ userId }: { userId: string }) {
  return (
    <div className="row">
      <p>
        Signed in as <strong>{userId}</strong>
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
