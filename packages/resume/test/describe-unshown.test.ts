import { describe, expect, it } from "vitest";
import { describeUnshown, unshownPartsOf } from "../src/json-resume/describe-unshown.ts";
import { fromJsonResume } from "../src/json-resume/from-json-resume.ts";
import { SAMPLE_RESUMES } from "../../../test/json-resume-validators.ts";

describe("what the editor does not show of a JSON Resume document", () => {
  it("names the parts of resume-schema's sample, in the order fromJsonResume finds them", () => {
    const sample = SAMPLE_RESUMES.published;
    expect(unshownPartsOf(sample)).toEqual([
      "schema link ($schema)",
      "1 volunteer entry",
      "1 award",
      "1 publication",
      "1 language",
      "1 reference",
      "1 project",
      "document metadata (meta)",
      "picture",
      "Twitter profile",
      "username of 1 profile",
      "description of 1 work entry",
      "URL of 1 work entry",
      "URL of 1 education entry",
      "courses of 1 education entry",
      "keywords of 1 interest",
    ]);
    expect(unshownPartsOf(sample)).toEqual(describeUnshown(sample, fromJsonResume(sample).ignored));
  });

  it("counts the entries of a section and the items that have a key", () => {
    const work = (description?: string) => ({
      name: "Acme",
      position: "Engineer",
      startDate: "2020",
      ...(description ? { description } : {}),
    });
    const document = {
      basics: {
        name: "Ada",
        profiles: [{ network: "Twitter" }, { network: "GitHub", url: "https://x.test" }],
      },
      volunteer: Array.from({ length: 6 }, () => ({ organization: "Food bank" })),
      work: [work("Built things"), work(), work("Ran things")],
      interests: [{ name: "Go", keywords: ["concurrency"] }],
    };
    expect(unshownPartsOf(document)).toEqual([
      "6 volunteer entries",
      "Twitter profile",
      "description of 2 work entries",
      "keywords of 1 interest",
    ]);
  });

  it("counts profiles of one network together and names those without a network", () => {
    const document = {
      basics: { profiles: [{ network: "Twitter" }, { username: "ada" }, { network: " Twitter " }] },
    };
    expect(
      describeUnshown(document, ["basics.profiles[0]", "basics.profiles[1]", "basics.profiles[2]"]),
    ).toEqual(["2 Twitter profiles", "profile without a network"]);
  });

  it("reads keys that are not identifiers, tells an empty section, and gives what it cannot name as it is", () => {
    const document = { volunteer: [], extra: { a: 1 }, goals: [{ description: "x" }] };
    expect(
      describeUnshown(document, [
        'work[0]["x-colour"]',
        'work[1]["x-colour"]',
        "volunteer",
        "extra",
        'meta["x-resume"].note',
        "basics.nickname",
        "constructor[0].toString",
        "not a [path",
      ]),
    ).toEqual([
      "x-colour of 2 work entries",
      "no volunteer entries",
      "extra",
      'meta["x-resume"].note',
      "basics.nickname",
      "to string of 1 constructor entry",
      "not a [path",
    ]);
  });

  it("has nothing to tell of a document the editor shows whole", () => {
    expect(unshownPartsOf({ basics: { name: "Ada", email: "ada@example.org" } })).toEqual([]);
    expect(describeUnshown(null, [])).toEqual([]);
  });
});
