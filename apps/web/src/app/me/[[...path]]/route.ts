import { handleResumeRest } from "~/server/resume-api";

export const dynamic = "force-dynamic";

export const GET = handleResumeRest;
export const POST = handleResumeRest;
export const PUT = handleResumeRest;
export const PATCH = handleResumeRest;
export const DELETE = handleResumeRest;
