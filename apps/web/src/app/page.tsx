import Link from "next/link";

export default function HomePage() {
  return (
    <main className="narrow">
      <h1>Resume</h1>
      <p>
        Keep your resume in one place, edit it here, and read it as JSON or Markdown from any REST client.
      </p>
      <p>
        <Link href="/editor">Open the editor</Link> · <Link href="/docs">API documentation</Link>
      </p>
    </main>
  );
}
