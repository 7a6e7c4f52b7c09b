import { isDatabaseReachable } from "@app/db";
import { database } from "~/server/db";

export const dynamic = "force-dynamic";

export async function GET() {
  if (await isDatabaseReachable(database())) return Response.json({ status: "ok", database: "ok" });
  return Response.json(
    { statusCode: 503, error: "SERVICE_UNAVAILABLE", message: "the database is unreachable" },
    { status: 503 },
  );
}
