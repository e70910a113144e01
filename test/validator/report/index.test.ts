import { describe, expect, it } from "vitest";
import { formatNames, loadFormatter, paintFor } from "../../../src/validator/report/index.js";
import { NO_COLOURS } from "../../../src/validator/report/paint.js";
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

  it("paints in colour only the text format of a run that colours", async () => {
    expect((await paintFor("text", true)).red("error")).toBe("\u001b[31merror\u001b[39m");
    expect((await paintFor("text", true)).heading("a.json")).toBe("\u001b[1m\u001b[4ma.json\u001b[24m\u001b[22m");
    expect(await paintFor("text", false)).toBe(NO_COLOURS);
    for (const name of formatNames.filter((name) => name !== "text")) expect(await paintFor(name, true)).toBe(NO_COLOURS);
  });

  it("knows no other name, not even those every object inherits", async () => {
    for (const name of ["xml", "JSON", "", "toString", "constructor", "__proto__"]) expect(await loadFormatter(name)).toBeUndefined();
  });
});
