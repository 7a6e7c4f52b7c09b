import { describe, expect, it } from "vitest";
import { playwrightCounts, vitestCounts } from "../scripts/test-reports.ts";

const vitestTest = (fullName: string, status: string, failureMessages: string[] = []) => ({
  fullName,
  status,
  failureMessages,
});

describe("the test reports read at the end of npm test", () => {
  it("names each failed vitest test with its file and its message's first line, colours removed", () => {
    const counts = vitestCounts({
      numPassedTests: 1,
      numFailedTests: 1,
      success: false,
      testResults: [
        {
          name: `${process.cwd()}/apps/web/test/a.test.ts`,
          status: "failed",
          message: "",
          assertionResults: [
            vitestTest("suite passes", "passed"),
            vitestTest("suite breaks", "failed", [
              "\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at x.ts:1",
            ]),
          ],
        },
      ],
    });
    expect(counts).toEqual({
      passed: 1,
      failed: 1,
      failures: ["apps/web/test/a.test.ts › suite breaks: AssertionError: expected 1 to be 2"],
    });
  });

  it("counts a file that failed outside any test once, with the file's message", () => {
    const counts = vitestCounts({
      numPassedTests: 3,
      numFailedTests: 0,
      success: false,
      testResults: [
        {
          name: `${process.cwd()}/test/b.test.ts`,
          status: "failed",
          message: "Error: Hook timed out in 10000ms\nmore",
          assertionResults: [],
        },
      ],
    });
    expect(counts).toEqual({
      passed: 3,
      failed: 1,
      failures: ["test/b.test.ts: Error: Hook timed out in 10000ms"],
    });
  });

  it("names each unexpected Playwright test, nested suites included, and counts flaky ones as passed", () => {
    const spec = (title: string, status: string, message?: string) => ({
      title,
      file: "x.spec.ts",
      line: 7,
      tests: [{ status, results: [{ error: message === undefined ? undefined : { message } }] }],
    });
    const counts = playwrightCounts({
      stats: { expected: 1, unexpected: 1, flaky: 1 },
      suites: [
        {
          specs: [spec("fine", "expected")],
          suites: [
            {
              specs: [
                spec("broke", "unexpected", "Error: locator not found\ncall log"),
                spec("retried", "flaky"),
              ],
            },
          ],
        },
      ],
    });
    expect(counts).toEqual({
      passed: 2,
      failed: 1,
      failures: ["e2e/x.spec.ts:7 › broke: Error: locator not found"],
    });
  });
});
