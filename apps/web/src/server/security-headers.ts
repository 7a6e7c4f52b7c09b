/**
 * Headers on every response of the web app: next.config.ts puts them on what
 * Next.js serves, src/api/web-server.ts on the API it serves itself. This
 * Content-Security-Policy (scripts only from this origin, nothing inline) is
 * what the API, /docs and static files keep; src/proxy.ts replaces it on pages
 * with one carrying a per-request nonce.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; "),
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};
