/** `npm run db:migrate`: applies pending migrations to DATABASE_URL or the embedded database. */
import { migrate, openDatabase } from "./database.ts";

const database = await openDatabase();
try {
  const applied = await migrate(database.url);
  console.log(applied.length ? `applied ${applied.join(", ")}` : "database is up to date");
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await database.stop();
}
