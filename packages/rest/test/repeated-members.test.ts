import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { repeatedMembers } from "../src/repeated-members.ts";

const pathsOf = (text: string) => repeatedMembers(text, JSON.parse(text)).map(({ path }) => path);

describe("repeatedMembers", () => {
  it("finds a member given twice, at its path, whatever its value or nesting", () => {
    expect(pathsOf('{"amount": 1, "amount": 100}')).toEqual([["amount"]]);
    expect(pathsOf('{"entries": [{"amount": 1}, {"amount": 2, "memo": "x", "amount": {"a": 1}}]}')).toEqual([
      ["entries", 1, "amount"],
    ]);
    // Once however many times it is given, inner objects first (each as it closes).
    expect(pathsOf('{"a": 1, "a": 2, "a": 3, "b": {"c": [], "c": null}}')).toEqual([["b", "c"], ["a"]]);
  });

  it("reads names as JSON does: escapes decoded, __proto__ a name like another", () => {
    expect(pathsOf('{"a": 1, "\\u0061": 2}')).toEqual([["a"]]);
    expect(pathsOf('{"__proto__": 1, "__proto__": {}}')).toEqual([["__proto__"]]);
    expect(pathsOf('{"é": 1, "e\\u0301": 2}')).toEqual([]);
  });

  it("finds none where each name is once in its object: the same name in others, colons and quotes in strings", () => {
    expect(pathsOf('{"a": {"a": 1}, "b": {"a": 2}, "c": [{"a": 1}, {"a": 1}]}')).toEqual([]);
    expect(pathsOf('{"k\\":": "x:y", "v": ":", "w": "\\\\", "u": [":", {"\\"": "\\":"}]}')).toEqual([]);
    expect(pathsOf('[1, "a:b", {"x": 1}]')).toEqual([]);
  });

  it("keeps the paths of the first 100 found, and counts the others", () => {
    const names = Array.from({ length: 250 }, (_, i) => `"k${i}": 1, "k${i}": 2`);
    const found = pathsOf(`{"x": [{${names.join(", ")}}]}`);
    expect(found).toHaveLength(250);
    expect(found[99]).toEqual(["x", 0, "k99"]);
    expect(found.slice(100).every((path) => path.length === 0)).toBe(true);
  });

  it("walks a body nested as deep as its size allows without running out of stack", () => {
    const depth = 100_000;
    const text = `${'{"a":'.repeat(depth)}{"b": 1, "b": 2}${"}".repeat(depth)}`;
    expect(pathsOf(text)).toEqual([[...Array<string>(depth).fill("a"), "b"]]);
  });

  it("finds none in any document JSON.stringify writes, and the one member written twice into it", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, "\t"), (value, space) => {
        expect(pathsOf(JSON.stringify(value, null, space))).toEqual([]);
      }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.nat({ max: 3 })), { maxLength: 6 }),
        fc.string(),
        (path, name) => {
          // Objects for string keys and lists of 4 for numbers; at the end of the path, `name` twice.
          let document: unknown = "☃"; // not ASCII, so no name or key of fc.string()
          for (const part of [...path].reverse()) {
            document =
              typeof part === "number"
                ? Array.from({ length: 4 }, (_, i) => (i === part ? document : { [name]: i }))
                : { before: ":", [part]: document, after: [{ [name]: name }] };
          }
          const twice = `{${JSON.stringify(name)}: 1, ${JSON.stringify(name)}: 2}`;
          const text = JSON.stringify(document).replace('"☃"', () => twice);
          expect(pathsOf(text)).toEqual([[...path, name]]);
        },
      ),
    );
  });
});
