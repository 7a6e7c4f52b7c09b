/** What test/global-setup.ts provides to every test file through `inject`. */
import "vitest";
declare module "vitest" {
  export interface ProvidedContext {
    /** A connection string for creating and dropping databases. */
    adminUrl: string;
    /** This run's migrated database. */
    databaseUrl: string;
  }
}

export {};
