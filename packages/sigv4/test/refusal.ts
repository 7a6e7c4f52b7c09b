import { SigV4Error } from "../src/sigv4-error.ts";

/** What a step that refuses tells the caller: what the server answers with. */
export function refusalOf(step: () => unknown): Pick<SigV4Error, "status" | "errorName" | "message"> {
  try {
    step();
  } catch (error) {
    if (!(error instanceof SigV4Error)) throw error;
    return { status: error.status, errorName: error.errorName, message: error.message };
  }
  throw new Error("the step did not refuse");
}
