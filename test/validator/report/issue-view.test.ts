/**
 * issueView, what the library gives a page that shows issues as `basemodel validate` prints them
 * (web/validate/): its position, words and code frame are the text format's, line for line.
 */
import { describe, expect, it } from "vitest";
import { issueView, itemLabel, SourceLines, type FrameLine, type Issue } from "../../../src/index.js";
import { formatText } from "../../../src/validator/report/text.js";
import { brokenText, collectionText, fileReport, ndjsonText, runReport, syntaxErrorText } from "./fixtures.js";
import { NO_COLOURS } from "../../../src/validator/report/paint.js";

const plainLine = (line: FrameLine): string => line.map((segment) => segment.text).join("");

describe("issueView", () => {
  it.each([
    ["an item with four problems", "item.json", brokenText, {}],
    ["a syntax error", "bad.json", syntaxErrorText, {}],
    ["a collection", "items.json", collectionText, {}],
    ["NDJSON", "items.ndjson", ndjsonText, { format: "ndjson" as const }],
  ])("gives %s as the text format prints it", (_label, file, text, options) => {
    const report = fileReport(file, text, options);
    const printed = formatText(runReport([report]), { paint: NO_COLOURS, quiet: false });
    const source = new SourceLines(text);
    const shown = report.items.flatMap((item) =>
      [...item.errors, ...item.warnings].flatMap((issue: Issue) => {
        const { position, text: words, frame } = issueView(issue, source);
        return [`  ${file}:${position}  ${issue.severity}  ${issue.rule}  ${words}`, ...frame.map(plainLine)];
      }),
    );
    expect(shown.length).toBeGreaterThan(0);
    // Every line the view gives is printed, in the same order, apart from the items' headers between them.
    const printedLines = printed.split("\n").filter((line) => !/^ {2}(features\[|line )/.test(line));
    const start = printedLines.indexOf(shown[0]!);
    expect(printedLines.slice(start, start + shown.length)).toEqual(shown);
  });

  it("marks the offending line and its carets, and dims the gutter", () => {
    const [item] = fileReport("item.json", brokenText).items;
    const issue = item!.errors.find((each) => each.rule === "enum")!;
    const { position, frame } = issueView(issue, new SourceLines(brokenText));
    expect(position).toBe(`${issue.line}:${issue.column}`);
    const marked = frame.map((line) => line.filter((segment) => segment.style === "marked").map((segment) => segment.text));
    expect(marked).toEqual([[], [">"], ["^".repeat('"pytorch"'.length)]]);
    expect(frame.map((line) => line.filter((segment) => segment.style === "dim").map((segment) => segment.text.trim()))).toEqual([
      [String(issue.line! - 1), "|"],
      [String(issue.line), "|"],
      ["", "|"],
    ]);
  });

  it("has no frame without the source or a position, and shows control characters as U+FFFD", () => {
    const issue: Issue = { rule: "enum", severity: "error", path: "/x", message: "bad \u001b[31m", suggestion: "did you mean \u0007?" };
    expect(issueView(issue)).toEqual({ position: undefined, text: "bad \ufffd[31m (did you mean \ufffd?)", frame: [] });
    expect(issueView(issue, new SourceLines("{}"))).toMatchObject({ frame: [] });
  });

  it("itemLabel names an item of a document of several by its place", () => {
    const collection = fileReport("items.json", collectionText);
    expect(collection.items.map((item) => itemLabel(collection, item))).toEqual(["features[0]", "features[1]"]);
    const lone = fileReport("item.json", brokenText);
    expect(itemLabel(lone, lone.items[0]!)).toBeUndefined();
  });
});
