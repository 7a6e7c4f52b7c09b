/**
 * Reads the test runners' JSON reports into counts and one line per failure,
 * so that the end of `npm test` (all that CI shows of a long run) names what
 * failed and why.
 */
import path from "node:path";

// eslint-disable-next-line no-control-regex -- the runners' messages carry ANSI colours
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

export function firstLine(text: string): string {
  const [first = ""] = text.replace(ANSI_COLOUR, "").trim().split("\n");
  return first.slice(0, 300);
}

export interface Counts {
  passed: number;
  failed: number;
  /** One line a failure: where, what, and its first message line. */
  failures: string[];
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  success: boolean;
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

export function vitestCounts(r: VitestReport): Counts {
  const failures = r.testResults.flatMap((file) => {
    const where = path.relative(process.cwd(), file.name);
    const failedTests = file.assertionResults
      .filter((test) => test.status === "failed")
      .map((test) => `${where} › ${test.fullName}: ${firstLine(test.failureMessages[0] ?? "")}`);
    // A file that failed outside any test (its setup, an unhandled error) has only its message.
    return failedTests.length === 0 && file.status === "failed"
      ? [`${where}: ${firstLine(file.message)}`]
      : failedTests;
  });
  // A suite that failed outside any test counts once.
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests + (!r.success && r.numFailedTests === 0 ? 1 : 0),
    failures: failures.length === 0 && !r.success ? ["vitest failed outside any test"] : failures,
  };
}

interface PlaywrightSuite {
  suites?: PlaywrightSuite[];
  specs: {
    title: string;
    file: string;
    line: number;
    tests: { status: string; results: { error?: { message?: string } }[] }[];
  }[];
}

export function playwrightCounts(r: {
  stats: { expected: number; unexpected: number; flaky: number };
  suites: PlaywrightSuite[];
}): Counts {
  const specsOf = (suite: PlaywrightSuite): PlaywrightSuite["specs"] => [
    ...suite.specs,
    ...(suite.suites ?? []).flatMap(specsOf),
  ];
  const failures = r.suites.flatMap(specsOf).flatMap((spec) =>
    spec.tests
      .filter((test) => test.status === "unexpected")
      .map((test) => {
        const message = test.results.at(-1)?.error?.message ?? "";
        return `e2e/${spec.file}:${spec.line} › ${spec.title}: ${firstLine(message)}`;
      }),
  );
  return { passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected, failures };
}
