import { describe, expect, it } from "vitest";
import { distinctNames } from "../src/editor/distinct-names.ts";

describe("distinctNames", () => {
  it("names each row by its title while no other row has it", () => {
    expect(
      distinctNames([
        { title: "Engineer — Acme", meta: "2019 – 2021" },
        { title: "Lead — Acme", meta: "2021 – now" },
      ]),
    ).toEqual(["Engineer — Acme", "Lead — Acme"]);
  });

  it("adds the details of the rows whose title repeats, and only theirs", () => {
    expect(
      distinctNames([
        { title: "Engineer — Acme", meta: "2015 – 2017" },
        { title: "Lead — Initech", meta: "2017 – 2019" },
        { title: "Engineer — Acme", meta: "2019 – now" },
      ]),
    ).toEqual(["Engineer — Acme, 2015 – 2017", "Lead — Initech", "Engineer — Acme, 2019 – now"]);
  });

  it("numbers the rows that the details do not tell apart", () => {
    expect(
      distinctNames([
        { title: "Chess", meta: "" },
        { title: "Backend", meta: "All entries" },
        { title: "Chess", meta: "" },
        { title: "Backend", meta: "All entries" },
        { title: "Backend", meta: "2 jobs" },
      ]),
    ).toEqual([
      "Chess (1 of 2)",
      "Backend, All entries (1 of 2)",
      "Chess (2 of 2)",
      "Backend, All entries (2 of 2)",
      "Backend, 2 jobs",
    ]);
  });
});
