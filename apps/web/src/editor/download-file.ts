import { authorization } from "./trpc.ts";

/** The file name an answer gives (`filename*`, else `filename`), if any. */
function fileNameOf(disposition: string | null): string | undefined {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? "")?.[1];
  if (encoded) return decodeURIComponent(encoded);
  return /filename="([^"]+)"/i.exec(disposition ?? "")?.[1];
}

/** Saves `blob` as a file the browser downloads. */
function save(fileName: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  // Later: revoked at once, some browsers cancel the download before it starts.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * What became of a download: saved (with a `notice` when the PDF's fonts
 * cannot draw some of its characters), the session gone (401), or why not, in
 * the editor's words.
 */
export type DownloadOutcome =
  | { saved: true; notice?: string }
  | { signedOut: true }
  /** `status`: the server's answer, when there was one (404: what it names is gone). */
  | { problem: string; status?: number };

/**
 * What X-Unrendered-Characters (`U+5B57 U+6F22 and 3 more`) tells a person:
 * the characters themselves, and where they do show.
 */
function unrenderedNotice(header: string | null): string | undefined {
  if (!header) return undefined;
  const shown = header.replace(/U\+([0-9A-F]{4,6})/g, (_, hex: string) =>
    String.fromCodePoint(parseInt(hex, 16)),
  );
  return `The PDF's fonts cannot draw ${shown}: those characters show as empty boxes in it. The Word file and plain text keep them.`;
}

/**
 * Fetches `path` from the API (signed in by the session cookie or the editor's
 * token) and saves the answer as the file the server made, named as it names
 * it, else `fileName`. The Download menu and the Versions panel both save so.
 */
export async function downloadFile(path: string, fileName: string): Promise<DownloadOutcome> {
  try {
    const response = await fetch(path, { headers: await authorization(), credentials: "same-origin" });
    if (response.status === 401) return { signedOut: true };
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { message?: string } | null;
      return {
        problem: body?.message ?? `The download failed (${response.status}).`,
        status: response.status,
      };
    }
    save(fileNameOf(response.headers.get("content-disposition")) ?? fileName, await response.blob());
    const notice = unrenderedNotice(response.headers.get("x-unrendered-characters"));
    return notice ? { saved: true, notice } : { saved: true };
  } catch {
    return { problem: "Could not reach the server. Try the download again." };
  }
}
