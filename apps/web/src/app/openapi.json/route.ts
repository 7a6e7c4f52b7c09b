import { API_VERSION, resumeOpenApiDocument } from "@app/resume";

export function GET() {
  return Response.json(resumeOpenApiDocument, { headers: { "API-Version": API_VERSION } });
}
