import { readFile } from "node:fs/promises";
import path from "node:path";
import { getAbsoluteFSPath } from "swagger-ui-dist";

// swagger-ui-dist is a server-external package, so this is its real folder.
const swaggerDir = getAbsoluteFSPath();

const ASSETS: Record<string, { type: string; body: () => Promise<string> }> = {
  "swagger-ui.css": {
    type: "text/css",
    body: () => readFile(path.join(swaggerDir, "swagger-ui.css"), "utf8"),
  },
  "swagger-ui-bundle.js": {
    type: "text/javascript",
    body: () => readFile(path.join(swaggerDir, "swagger-ui-bundle.js"), "utf8"),
  },
  "docs-init.js": {
    type: "text/javascript",
    body: async () => `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui" });\n`,
  },
};

export async function GET(_request: Request, { params }: { params: Promise<{ asset: string }> }) {
  const name = (await params).asset;
  // Its own names only: `/docs/constructor` found what every object inherits (a function, then a 500).
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset)
    return Response.json({ statusCode: 404, error: "NOT_FOUND", message: "no such asset" }, { status: 404 });
  return new Response(await asset.body(), {
    headers: { "content-type": `${asset.type}; charset=utf-8`, "cache-control": "public, max-age=3600" },
  });
}
