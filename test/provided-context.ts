/** What test/global-setup.ts provides to every test file through `inject`. */
import "vitest";
declare module "vitest" {
  export interface ProvidedContext {
    /** A connection string for creating and dropping databases. */
    adminUrl: string;
    /** This run's migrated database (through PgBouncer when TEST_THROUGH_PGBOUNCER is set). */
    databaseUrl: string;
    /** False through PgBouncer in transaction mode: servers under test use unnamed statements. */
    preparedStatements: boolean;
  }
}

export {};
