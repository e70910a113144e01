import { describe, expect, it } from "vitest";
import { formats, formatterFor } from "../../src/report/index.js";
import { formatGithub } from "../../src/report/github.js";
import { formatJson } from "../../src/report/json.js";
import { formatJunit } from "../../src/report/junit.js";
import { formatSarif } from "../../src/report/sarif.js";
import { formatText } from "../../src/report/text.js";

describe("format registry", () => {
  it("offers the five formats by name", () => {
    expect(formats).toEqual({ text: formatText, json: formatJson, github: formatGithub, sarif: formatSarif, junit: formatJunit });
    for (const name of Object.keys(formats)) expect(formatterFor(name)).toBe(formats[name as keyof typeof formats]);
  });

  it("knows no other name, not even those every object inherits", () => {
    for (const name of ["xml", "JSON", "", "toString", "constructor", "__proto__"]) expect(formatterFor(name)).toBeUndefined();
  });
});
