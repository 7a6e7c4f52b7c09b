import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { roundedNumbers } from "../src/rounded-numbers.ts";

describe("roundedNumbers", () => {
  it("finds each number parsing rounded to a whole number, by its path", () => {
    const body = `{"entries": [ {"account_id": "a", "amount": 1.0000000000000001},
      {"account_id": "b", "amount" :-9007199254740991.4} ], "n": {"x y": [0, 1e-400]}}`;
    expect(roundedNumbers(body)).toEqual([
      { path: ["entries", 0, "amount"], sent: "1.0000000000000001", read: 1 },
      { path: ["entries", 1, "amount"], sent: "-9007199254740991.4", read: -9007199254740991 },
      { path: ["n", "x y", 1], sent: "1e-400", read: 0 },
    ]);
  });

  it("leaves numbers whose double JSON writes back as the same number, fractions and numbers past 2^53 too", () => {
    for (const number of [
      "1.0",
      "100.000000000000000000",
      "1e3",
      "1.5E1",
      "0.0",
      "-0",
      "0e10",
      "9007199254740991",
      "-9007199254740992.0000",
      "1e22",
      "10.5",
      "0.1",
      "123456789012345.6",
      "47830160809979490",
      "1e308",
      "1.7976931348623157e308",
      "5e-324",
      "1e-99",
    ]) {
      expect(roundedNumbers(`{"long digits 12345678901234567": ${number}}`), number).toEqual([]);
    }
  });

  it("finds a fraction or a number past 2^53 that reads as another, and one past a double's range", () => {
    expect(
      roundedNumbers(
        '{"a": [1234567890123456.7, 9007199254740993, 12345678901234567890, 1e400, -1E+309, 4.9e-324]}',
      ),
    ).toEqual([
      { path: ["a", 0], sent: "1234567890123456.7", read: 1234567890123456.8 },
      { path: ["a", 1], sent: "9007199254740993", read: 9007199254740992 },
      { path: ["a", 2], sent: "12345678901234567890", read: 12345678901234567000 },
      { path: ["a", 3], sent: "1e400", read: Infinity },
      { path: ["a", 4], sent: "-1E+309", read: -Infinity },
      { path: ["a", 5], sent: "4.9e-324", read: 5e-324 },
    ]);
  });

  it("finds a number that underflows to 0, in a body without a long run of digits", () => {
    expect(roundedNumbers('{"min_balance": 1e-400}')).toEqual([
      { path: ["min_balance"], sent: "1e-400", read: 0 },
    ]);
    expect(roundedNumbers('{"a":[-2.5E-330]}')).toEqual([{ path: ["a", 0], sent: "-2.5E-330", read: -0 }]);
    expect(roundedNumbers('{"a": 1e-99, "id": "c0a8012e-1234-4e5f-9a7b-2c3d4e5f6a7b"}')).toEqual([]);
  });

  it("does not take digits in strings, escaped quotes included, for numbers", () => {
    expect(roundedNumbers(`{"k\\"1.0000000000000001": "1.0000000000000001\\\\", "v": [true, null]}`)).toEqual(
      [],
    );
  });

  it("walks a body nested as deep as its size allows without running out of stack", () => {
    const depth = 100_000;
    const found = roundedNumbers(`${"[".repeat(depth)}1.0000000000000001${"]".repeat(depth)}`);
    expect(found).toHaveLength(1);
    expect(found[0]!.path).toEqual(Array(depth).fill(0));
  });

  it("finds nothing in any document JSON.stringify writes, however it nests and spaces it", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, "\t"), (value, space) => {
        expect(roundedNumbers(JSON.stringify(value, null, space))).toEqual([]);
      }),
    );
  });

  it("finds a rounded number put anywhere in such a document, at its path", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.nat({ max: 3 })), { maxLength: 6 }), (path) => {
        // Objects for string keys and lists of 4 for numbers, the rounded number at the end of the path.
        let document: unknown = "ROUNDED";
        for (const part of [...path].reverse()) {
          document =
            typeof part === "number"
              ? Array.from({ length: 4 }, (_, i) => (i === part ? document : 2 ** 60))
              : { before: "1.0000000000000001", [part]: document, after: [0.1] };
        }
        const text = JSON.stringify(document).replace('"ROUNDED"', "4.00000000000000001");
        expect(roundedNumbers(text)).toEqual([{ path, sent: "4.00000000000000001", read: 4 }]);
      }),
    );
  });

  it("skips a body unwalked only when walking it finds nothing, whatever number it holds", () => {
    const literal = fc
      .tuple(
        fc.boolean(),
        fc.stringMatching(/^(0|[1-9]\d{0,24})$/),
        fc.option(fc.stringMatching(/^\d{1,24}$/), { nil: undefined }),
        fc.option(fc.integer({ min: -400, max: 400 }), { nil: undefined }),
      )
      .map(([negative, whole, fraction, exponent]) =>
        [
          negative ? "-" : "",
          whole,
          fraction ? `.${fraction}` : "",
          exponent === undefined ? "" : `e${exponent}`,
        ].join(""),
      );
    fc.assert(
      fc.property(literal, (number) => {
        // A run of 16 digits in a string makes the walk happen; without it, the quick look decides.
        const walked = roundedNumbers(`{"a": ${number}, "pad": "1234567890123456"}`);
        expect(roundedNumbers(`{"a": ${number}}`), number).toEqual(walked);
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads a number of a million digits in one pass", () => {
    // Each zero of a run once: a pattern that tried again from each one took hours here.
    const number = `0.1${"0".repeat(1_000_000)}1`;
    expect(roundedNumbers(`{"a": ${number}}`)).toEqual([{ path: ["a"], sent: number, read: 0.1 }]);
  });

  it("keeps the paths of the first 100 found, and counts the others", () => {
    const found = roundedNumbers(`{"deep": [[${Array(250).fill("1e400").join(",")}]]}`);
    expect(found).toHaveLength(250);
    expect(found[99]!.path).toEqual(["deep", 0, 99]);
    expect(found.slice(100).every(({ path }) => path.length === 0)).toBe(true);
  });
});
