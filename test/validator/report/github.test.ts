import { describe, expect, it } from "vitest";
import { formatGithub, formatStepSummary } from "../../../src/validator/report/github.js";
import { brokenText, cleanText, fileReport, issueCount, mixedReport, runReport, itemText, unreadable, withoutPositions } from "./fixtures.js";
import { NO_COLOURS } from "../../../src/validator/report/paint.js";

const context = { paint: NO_COLOURS, quiet: false };

function commands(output: string): string[] {
  expect(output.endsWith("\n")).toBe(true);
  return output.slice(0, -1).split("\n");
}

/** The cells of a Markdown table row, split on the pipes that are not escaped. */
function cells(row: string): string[] {
  return row.slice(2, -2).split(/(?<!\\) \| /);
}

function tableRows(markdown: string): string[] {
  const lines = markdown.split("\n");
  const header = lines.indexOf("| File | Line | Severity | Rule | Message |");
  return lines.slice(header + 2).filter((line) => line.startsWith("| "));
}

describe("github format", () => {
  const mixed = mixedReport();

  it("writes one workflow command per issue and per unreadable file", () => {
    const lines = commands(formatGithub(mixed, context));
    expect(lines).toHaveLength(issueCount(mixed) + 1);
    expect(lines.filter((line) => line.startsWith("::warning "))).toHaveLength(mixed.summary.warnings);
    expect(lines.filter((line) => line.startsWith("::error "))).toHaveLength(mixed.summary.errors + 1);
  });

  it("gives file, line, columns (GitHub's end column is inclusive), title and the message with its suggestion", () => {
    const lines = commands(formatGithub(mixed, context));
    expect(lines).toContain(
      '::error file=models/unet/stac-item.json,line=18,col=26,endLine=18,endColumn=34,title=basemodel enum::properties.mlm:framework must be one of "PyTorch", "TensorFlow"; found a string ("pytorch") (did you mean "PyTorch"?)',
    );
    expect(lines).toContain(
      '::warning file=models/unet/stac-item.json,line=60,col=9,endLine=60,endColumn=26,title=basemodel unknown-prefixed-property::unknown member "fair:metric_spec" in properties; the known "fair:" members are fair:metrics_spec and fair:split_spec (did you mean "fair:metrics_spec"?)',
    );
    expect(lines).toContain("::error file=missing.json,line=1,title=basemodel read-error::ENOENT: no such file or directory");
  });

  it("escapes % CR LF in messages, and also : and , in properties", () => {
    const framework = brokenText.replace('"mlm:framework": "pytorch"', '"mlm:framework": "50% PyTorch"');
    const report = runReport([fileReport("dir:a,b/100%.json", framework), unreadable("x,y:z.json", "first line\r\nsecond line 100%")]);
    const lines = commands(formatGithub(report, context));
    expect(lines).toContain(
      '::error file=dir%3Aa%2Cb/100%25.json,line=18,col=26,endLine=18,endColumn=38,title=basemodel enum::properties.mlm:framework must be one of "PyTorch", "TensorFlow"; found a string ("50%25 PyTorch")',
    );
    expect(lines).toContain("::error file=x%2Cy%3Az.json,line=1,title=basemodel read-error::first line%0D%0Asecond line 100%25");
  });

  it("leaves columns out of ranges over several lines", () => {
    const text = itemText.replace(/"mlm:tasks": \[\s*"semantic-segmentation"\s*\]/, '"mlm:tasks": {\n            "semantic-segmentation": 1\n        }');
    const lines = commands(formatGithub(runReport([fileReport("tasks.json", text)]), context));
    expect(lines[0]).toBe("::error file=tasks.json,line=15,endLine=17,title=basemodel type::properties.mlm:tasks must be an array; found an object");
  });

  it("uses line 1 for an issue without a position", () => {
    const lines = commands(formatGithub(runReport([withoutPositions(fileReport("deep.json", brokenText))]), context));
    expect(lines[0]).toBe('::error file=deep.json,line=1,title=basemodel const::type must be "Feature"; found a string ("feature") (did you mean "Feature"?)');
  });

  it("says when --max-errors left issues out", () => {
    const lines = commands(formatGithub(runReport([fileReport("a.json", brokenText, { maxErrors: 2 })]), context));
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("::warning file=a.json,line=1,title=basemodel max-errors::… and 3 more issues: 1 error, 2 warnings (raise --max-errors)");
  });

  it("writes nothing when there is nothing to say", () => {
    expect(formatGithub(runReport([fileReport("clean.json", cleanText)]), context)).toBe("");
  });
});

describe("github step summary", () => {
  const mixed = mixedReport();

  it("has a heading, the counts and one table row per issue and unreadable file", () => {
    const markdown = formatStepSummary(mixed);
    expect(markdown.startsWith("## basemodel validate\n")).toBe(true);
    expect(markdown).toContain("| Files | Unreadable | Items | Valid | Invalid | Errors | Warnings |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n| 6 | 1 | 8 | 3 | 5 | 7 | 6 |\n");
    const rows = tableRows(markdown);
    expect(rows).toHaveLength(issueCount(mixed) + 1);
    expect(rows).toContain(
      '| models/unet/stac-item.json | 18:26 | error | enum | properties.mlm:framework must be one of "PyTorch", "TensorFlow"; found a string ("pytorch") (did you mean "PyTorch"?) |',
    );
    expect(rows).toContain("| missing.json |  | error | read-error | ENOENT: no such file or directory |");
    for (const row of rows) expect(cells(row)).toHaveLength(5);
  });

  it("escapes pipes, Markdown and HTML in cells, and line breaks", () => {
    const framework = brokenText.replace('"mlm:framework": "pytorch"', '"mlm:framework": "Py|Torch <b>"');
    const report = runReport([fileReport("a|b.json", framework), unreadable("c.json", "one\ntwo")]);
    const rows = tableRows(formatStepSummary(report));
    expect(rows).toContain(
      '| a\\|b.json | 18:26 | error | enum | properties.mlm:framework must be one of "PyTorch", "TensorFlow"; found a string ("Py\\|Torch \\<b\\>") |',
    );
    expect(rows).toContain("| c.json |  | error | read-error | one<br>two |");
    for (const row of rows) expect(cells(row)).toHaveLength(5);
  });

  it("lists the issues --max-errors left out, and counts every issue found", () => {
    const summary = formatStepSummary(runReport([fileReport("a.json", brokenText, { maxErrors: 2 })]));
    const rows = tableRows(summary);
    expect(rows.at(-1)).toBe("| a.json | 1 |  |  | … and 3 more issues: 1 error, 2 warnings (raise --max-errors) |");
    // Files, Unreadable, Items, Valid, Invalid, Errors, Warnings: 3 errors and 2 warnings, though 2 errors are listed.
    expect(summary).toContain("| 1 | 0 | 1 | 0 | 1 | 3 | 2 |");
  });

  it("stays under GitHub's 1 MiB limit, and says how many rows it left out", () => {
    const broken = fileReport("models/unet/stac-item.json", brokenText);
    const report = runReport(Array.from({ length: 3000 }, (_, index) => ({ ...broken, file: `models/copy-${index}/stac-item.json` })));
    const total = issueCount(report);
    const markdown = formatStepSummary(report);
    expect(Buffer.byteLength(markdown)).toBeLessThanOrEqual(1024 * 1024);
    const rows = tableRows(markdown);
    const shown = rows.length - 1;
    expect(shown).toBeGreaterThan(1000);
    expect(rows.at(-1)).toBe(`| … ${total - shown} more issues |  |  |  |  |`);
  });

  it("says so when there is no problem", () => {
    expect(formatStepSummary(runReport([fileReport("clean.json", cleanText)]))).toContain("\nNo problems found.\n");
  });

  it("says how many JSON files a walk skipped, under the counts", () => {
    const report = runReport([fileReport("clean.json", cleanText)]);
    expect(formatStepSummary(report)).not.toContain("skipped");
    const skipped = formatStepSummary({ ...report, summary: { ...report.summary, skipped: 3 }, skipped: ["a.json", "b.json", "c.json"] });
    expect(skipped).toContain("|\n\n3 other JSON files skipped: JSON, but not STAC.\n\nNo problems found.\n");
  });
});
