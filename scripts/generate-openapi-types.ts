/** `npm run openapi:types`: regenerates the resume API's client types that the tests use. */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { resumeOpenApiDocument } from "@app/resume";
import { repoRoot } from "./env.ts";
import { openApiTypes } from "./openapi-types.ts";

const target = path.join(repoRoot, "apps", "web", "test", "generated", "resume-api.ts");
await writeFile(target, await openApiTypes(JSON.parse(JSON.stringify(resumeOpenApiDocument))));
console.log(`wrote ${path.relative(repoRoot, target)}`);
