import { describe, expect, it } from "vitest";
import { formatText } from "../../../src/validator/report/text.js";
import { brokenText, fileReport, mixedReport, ndjsonText, runReport, syntaxErrorText, itemText, unreadable, withoutPositions } from "./fixtures.js";
import { loadColours, NO_COLOURS } from "../../../src/validator/report/paint.js";

const plain = { paint: NO_COLOURS, quiet: false };
const ANSI = /\u001b\[[0-9;]*m/g;

function lines(output: string): string[] {
  return output.split("\n");
}

/** The frame line showing the given line number, and the caret line under it. */
function frameAt(output: string, lineNumber: number): { line: string; carets: string } {
  const all = lines(output);
  const index = all.findIndex((line) => new RegExp(`^    > +${lineNumber} \\| `).test(line));
  expect(index, `no frame for line ${lineNumber}`).toBeGreaterThan(-1);
  return { line: all[index]!, carets: all[index + 1]! };
}

describe("text format", () => {
  const mixed = mixedReport();

  it("prints an issue with its position, severity, rule, message, suggestion and a code frame", () => {
    const output = formatText(runReport([fileReport("models/unet/stac-item.json", brokenText)]), plain);
    const all = lines(output);
    const at = all.indexOf(
      '  models/unet/stac-item.json:18:26  error  enum  properties.mlm:framework must be one of "PyTorch", "TensorFlow"; found a string ("pytorch") (did you mean "PyTorch"?)',
    );
    expect(at).toBeGreaterThan(-1);
    expect(all.slice(at + 1, at + 4)).toEqual([
      "      17 |         ],",
      '    > 18 |         "mlm:framework": "pytorch",',
      `         | ${" ".repeat(25)}${"^".repeat(9)}`,
    ]);
    expect(all[0]).toBe("models/unet/stac-item.json");
  });

  it("puts the carets exactly under the offending text", () => {
    const output = formatText(runReport([fileReport("models/unet/stac-item.json", brokenText)]), plain);
    const { line, carets } = frameAt(output, 2);
    expect(carets.indexOf("^")).toBe(line.indexOf('"feature"'));
    expect(carets.slice(carets.indexOf("^"))).toBe("^".repeat('"feature"'.length));
  });

  it("points a missing member at the object it is missing from", () => {
    const output = formatText(runReport([fileReport("models/unet/stac-item.json", brokenText)]), plain);
    expect(output).toContain('  models/unet/stac-item.json:9:5  error  required  "mlm:name" is missing from properties\n');
    const { line, carets } = frameAt(output, 9);
    expect(line.slice(carets.indexOf("^"), carets.lastIndexOf("^") + 1)).toBe('"properties"');
  });

  it("prints a syntax error on the first line without a context line", () => {
    const output = formatText(runReport([fileReport("bad-syntax.json", syntaxErrorText)]), plain);
    expect(lines(output).slice(0, 4)).toEqual([
      "bad-syntax.json",
      "  bad-syntax.json:1:19  error  json-syntax  JSON syntax error: trailing comma before `}`; JSON allows no comma after the last member of an object",
      '    > 1 | {"type": "Feature",}',
      `        | ${" ".repeat(18)}^`,
    ]);
  });

  it("prints one line per valid file, per unreadable file, and the summary", () => {
    const output = formatText(mixed, plain);
    const all = lines(output);
    expect(all).toContain("models/clean/stac-item.json  ok");
    expect(all).toContain("missing.json  error  ENOENT: no such file or directory");
    expect(all.at(-2)).toBe("6 files, 1 unreadable, 8 items: 3 valid, 5 invalid; 7 errors, 6 warnings (12 ms)");
    expect(output.endsWith("\n")).toBe(true);
  });

  it("ends the summary with the JSON files a walk skipped, when it skipped some", () => {
    const one = { ...mixed, summary: { ...mixed.summary, skipped: 1 }, skipped: ["package.json"] };
    expect(lines(formatText(one, plain)).at(-2)).toBe("6 files, 1 unreadable, 8 items: 3 valid, 5 invalid; 7 errors, 6 warnings; 1 other JSON file skipped (12 ms)");
    const twelve = { ...mixed, summary: { ...mixed.summary, skipped: 12 } };
    expect(lines(formatText(twelve, plain)).at(-2)).toMatch(/; 12 other JSON files skipped \(12 ms\)$/);
  });

  it("in quiet mode prints errors only: no valid files, no warnings, but the summary counts them", () => {
    const output = formatText(mixed, { paint: NO_COLOURS, quiet: true });
    expect(output).not.toContain("  ok");
    expect(output).toContain("missing.json  error  ENOENT");
    expect(output).not.toContain("  warning  ");
    expect(output).toContain("  error  const  ");
    expect(output).toMatch(/\d+ warnings? \(/);
  });

  it("names the item inside collections and NDJSON files", () => {
    const output = formatText(mixed, plain);
    const all = lines(output);
    const member = all.indexOf('  features[1] (id "b")');
    expect(member).toBeGreaterThan(-1);
    expect(all[member + 1]).toBe('  catalog/collection.json:126:15  error  const  type must be "Feature"; found a string ("x")');
    expect(all).toContain('  line 3 (id "deeplabv3-buildings-tuned")');
    expect(all).toContain("  line 4");
    expect(all).toContain('  items.ndjson:4:2  error  json-syntax  JSON syntax error: the member name oops is not quoted; JSON member names take double quotes (write "oops")');
  });

  it("cuts long lines around the issue and keeps the carets aligned", () => {
    const output = formatText(runReport([fileReport("items.ndjson", ndjsonText, { format: "ndjson" })]), plain);
    const { line, carets } = frameAt(output, 1);
    // ~3,500 characters in the file; the frame shows 160 of them, between ellipses.
    expect(line.length).toBeLessThan(200);
    expect(line).toMatch(/^ {4}> 1 \| …[^…]{160}…$/);
    expect(line.slice(carets.indexOf("^"), carets.lastIndexOf("^") + 1)).toBe('"fair:hyperparameters_spec"');
  });

  it("does not print a huge minified file, only a slice of it", () => {
    const item = JSON.parse(itemText) as { properties: Record<string, unknown> };
    item.properties.description = "x".repeat(2_000_000);
    item.properties["mlm:framework"] = "pytorch";
    const text = JSON.stringify(item);
    const output = formatText(runReport([fileReport("huge.json", text)]), plain);
    expect(output.length).toBeLessThan(5_000);
    const { line, carets } = frameAt(output, 1);
    expect(line.slice(carets.indexOf("^"), carets.lastIndexOf("^") + 1)).toBe('"pytorch"');
  });

  it("keeps tabs in the caret line and drops carriage returns", () => {
    const tabbed = JSON.stringify(JSON.parse(brokenText), null, "\t").replace(/\n/g, "\r\n");
    const output = formatText(runReport([fileReport("tabs.json", tabbed)]), plain);
    expect(output).not.toContain("\r");
    const frameLine = lines(output).find((line) => line.includes('"mlm:framework": "pytorch"'))!;
    const carets = lines(output)[lines(output).indexOf(frameLine) + 1]!;
    expect(carets).toMatch(/^ +\| \t\t {17}\^{9}$/);
  });

  it("never prints control characters raw: U+FFFD in the frame and the file name, an escape in the parser's message", () => {
    const report = runReport([fileReport("escape.json", '{"type": "Feature",\u001b[2J}'), unreadable("evil\u001b[2J.json", "EACCES")]);
    const output = formatText(report, plain);
    expect(output).not.toContain("\u001b");
    expect(output).toContain("evil\ufffd[2J.json  error  EACCES\n");
    expect(output).toContain("  escape.json:1:20  error  json-syntax  JSON syntax error: unexpected character \\u001b: a member name in double quotes belongs here\n");
    expect(output).toContain('    > 1 | {"type": "Feature",\ufffd[2J}');
  });

  it("prints issues without a position without a frame", () => {
    const report = runReport([withoutPositions(fileReport("deep.json", brokenText))]);
    expect(report.files[0]!.items[0]!.errors[0]!.line).toBeUndefined();
    const output = formatText(report, plain);
    expect(lines(output)[1]).toBe('  deep.json  error  const  type must be "Feature"; found a string ("feature") (did you mean "Feature"?)');
    expect(output).not.toContain(" | ");
  });

  it("says how many issues --max-errors left out, and counts every issue found in the summary", () => {
    const output = formatText(runReport([fileReport("models/unet/stac-item.json", brokenText, { maxErrors: 1 })]), plain);
    expect(lines(output)).toContain("  … and 4 more issues: 2 errors, 2 warnings (raise --max-errors)");
    expect(lines(output)).toContain("1 file, 1 item: 0 valid, 1 invalid; 3 errors and 2 warnings, showing 1 (12 ms)");
  });

  it("colours only when asked to, and colours nothing but the styling", async () => {
    const uncoloured = formatText(mixed, plain);
    const coloured = formatText(mixed, { paint: await loadColours(), quiet: false });
    expect(uncoloured).not.toMatch(ANSI);
    expect(coloured).toContain("\u001b[31merror\u001b[39m");
    expect(coloured).toContain("\u001b[32mok\u001b[39m");
    expect(coloured.replace(ANSI, "")).toBe(uncoloured);
  });
});
