/**
 * The Content-Security-Policy of a page. Scripts run only with this response's
 * nonce ('strict-dynamic' lets those scripts load Next's chunks), so no inline
 * script an attacker manages to inject can run. With Clerk, its Frontend API
 * (which serves Clerk's script and answers its calls) and its image and
 * bot-check hosts are allowed too. (Browsers that know 'strict-dynamic'
 * ignore host sources in script-src; older ones use them instead.)
 */
export function pageContentSecurityPolicy(nonce: string, clerkFrontendApi?: string): string {
  const clerk = clerkFrontendApi ? [clerkFrontendApi] : [];
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic' ${clerk.join(" ")}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${clerkFrontendApi ? " https://img.clerk.com" : ""}`,
    "font-src 'self'",
    `connect-src 'self' ${clerk.join(" ")}`.trim(),
    clerkFrontendApi ? "frame-src https://challenges.cloudflare.com" : "frame-src 'none'",
    clerkFrontendApi ? "worker-src 'self' blob:" : "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** A random nonce for one response (base64 of 16 random bytes). */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}
