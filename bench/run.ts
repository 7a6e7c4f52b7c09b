/**
 * `npm run bench [posting|resume|documents|mixed|balances|controls|search|feed ...]`: starts its own database and
 * production servers, prints a table per benchmark, cleans up. BENCH_SECONDS
 * sets each load run's length (default 10).
 */
import { benchBalances, benchPosting } from "./ledger.ts";
import { benchControls } from "./ledger-controls.ts";
import { benchFeed } from "./ledger-feed.ts";
import { benchSearch, SEARCH_DATABASE } from "./ledger-search.ts";
import { benchResume } from "./resume.ts";
import { benchResumeDocuments } from "./resume-documents.ts";
import { benchResumeMixed } from "./resume-mixed.ts";
import { env } from "../scripts/env.ts";
import { startBenchEnvironment } from "./environment.ts";
import { describeMachine } from "./machine.ts";

const seconds = env.BENCH_SECONDS;
const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);

console.log(describeMachine());
const environment = await startBenchEnvironment();
try {
  if (wanted("posting"))
    await benchPosting(
      environment.ledgerUrl,
      environment.pidOf(environment.ledgerUrl),
      environment.databaseUrl,
      seconds,
    );
  if (wanted("resume")) await benchResume(environment.startWeb, seconds);
  if (wanted("documents")) await benchResumeDocuments(environment.startWeb, seconds);
  if (wanted("mixed")) await benchResumeMixed(environment.startWeb, environment.pidOf, seconds);
  if (wanted("balances")) await benchBalances(environment.ledgerUrl, environment.databaseUrl);
  if (wanted("controls")) await benchControls(environment.ledgerUrl, environment.databaseUrl, seconds);
  if (wanted("search")) {
    const kept = await environment.startKeptLedger(SEARCH_DATABASE);
    await benchSearch(kept.ledgerUrl, kept.databaseUrl);
  }
  if (wanted("feed")) await benchFeed(environment.ledgerUrl, seconds);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await environment.stop();
}
