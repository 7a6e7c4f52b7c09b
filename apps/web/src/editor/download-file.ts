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

/** What became of a download: saved, the session gone (401), or why not, in the editor's words. */
export type DownloadOutcome = { saved: true } | { signedOut: true } | { problem: string };

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
      return { problem: body?.message ?? `The download failed (${response.status}).` };
    }
    save(fileNameOf(response.headers.get("content-disposition")) ?? fileName, await response.blob());
    return { saved: true };
  } catch {
    return { problem: "Could not reach the server. Try the download again." };
  }
}
