export default function HomePage() {
  return (
    <main>
      <h1>Resume service</h1>
      <p>
        The REST API lives under <code>/me/*</code>. Get a development token with{" "}
        <code>npm run token -- --user you</code>.
      </p>
    </main>
  );
}
