/**
 * Why the embedded PostgreSQL cannot run here, in one sentence a person can act
 * on: the commands print it alone, without a stack trace.
 */
export class EmbeddedPostgresError extends Error {
  override name = "EmbeddedPostgresError";
}
