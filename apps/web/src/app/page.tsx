import Link from "next/link";

export default function HomePage() {
  return (
    <main className="narrow">
      <h1>Resume</h1>
      <p>
        Keep your resume in one place, edit it here, and send it as a PDF, a Word file or a link, in versions
        tailored to each job; any REST client reads and writes it too (JSON, Markdown, JSON Resume).
      </p>
      <p>
        <Link href="/editor">Open the editor</Link> · <Link href="/docs">API documentation</Link>
      </p>
    </main>
  );
}
