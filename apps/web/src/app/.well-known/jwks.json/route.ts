import { authSetup } from "../../../server/auth.ts";

export const dynamic = "force-dynamic";

/** The local development issuer's public keys; absent when a real provider is configured. */
export async function GET() {
  const setup = await authSetup();
  if (setup.mode !== "local") {
    return Response.json(
      { statusCode: 404, error: "NOT_FOUND", message: "the local issuer is not in use" },
      { status: 404 },
    );
  }
  return Response.json(setup.localIssuer.jwks, { headers: { "cache-control": "public, max-age=300" } });
}
