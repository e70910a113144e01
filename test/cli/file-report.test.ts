/**
 * What a file's report keeps beside its items: its text only for the format that shows it (the
 * text format's code frames), its bytes only when asked (--check-links).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validatedFile } from "../../src/cli/file-report.js";
import { validatorOf } from "../../src/validator/engine/validator.js";
import { formatNames, showsSource } from "../../src/validator/report/index.js";
import { ROOT } from "./helpers.js";

const validator = validatorOf({});
const brokenPath = join(ROOT, "fixtures/invalid/const-type-lowercase.json");
const bytes = readFileSync(brokenPath);
const found = { path: brokenPath, shown: "const-type-lowercase.json" };

describe("validatedFile", () => {
  it("keeps the text of a file with problems only when asked, with the same items either way", () => {
    const kept = validatedFile(found, { bytes }, validator, { bytes: false, source: true });
    const left = validatedFile(found, { bytes }, validator, { bytes: false, source: false });
    expect(kept.report.items.length).toBeGreaterThan(0);
    expect(kept.report.items[0]!.valid).toBe(false);
    expect(kept.report.source).toBe(bytes.toString("utf8"));
    expect(left.report.source).toBeUndefined();
    expect(left.report.items).toEqual(kept.report.items);
    expect(left.bytes).toBeUndefined();
  });

  it("keeps the bytes when asked", () => {
    expect(validatedFile(found, { bytes }, validator, { bytes: true, source: false }).bytes).toBe(bytes);
  });
});

describe("showsSource", () => {
  it("is true for the text format alone, the one whose code frames show the files' text", () => {
    expect(formatNames.filter(showsSource)).toEqual(["text"]);
  });
});
