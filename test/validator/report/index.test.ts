import { describe, expect, it } from "vitest";
import { formatNames, loadFormatter } from "../../../src/validator/report/index.js";
import { formatGithub } from "../../../src/validator/report/github.js";
import { formatJson } from "../../../src/validator/report/json.js";
import { formatJunit } from "../../../src/validator/report/junit.js";
import { formatSarif } from "../../../src/validator/report/sarif.js";
import { formatText } from "../../../src/validator/report/text.js";

describe("format registry", () => {
  it("offers the five formats by name", async () => {
    expect(formatNames).toEqual(["text", "json", "github", "sarif", "junit"]);
    const loaded = await Promise.all(formatNames.map((name) => loadFormatter(name)));
    expect(loaded).toEqual([formatText, formatJson, formatGithub, formatSarif, formatJunit]);
  });

  it("knows no other name, not even those every object inherits", async () => {
    for (const name of ["xml", "JSON", "", "toString", "constructor", "__proto__"]) expect(await loadFormatter(name)).toBeUndefined();
  });
});
