/**
 * JUnit XML, which most CI services show as test results: one test suite per file, one test case
 * per item. An invalid item fails; an unreadable file is a test error.
 */
import type { Issue } from "../../diagnostics/issue.js";
import { issuePosition, issueText, itemLabel, moreIssuesText, plural } from "./labels.js";
import type { FileReport, Formatter, ItemResult } from "./types.js";

/**
 * Characters XML 1.0 forbids even as references: C0 controls other than tab and line breaks,
 * U+FFFE, U+FFFF and unpaired surrogates (the u flag leaves proper pairs alone).
 */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff\ud800-\udfff]/gu;

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\r": "&#13;" };

/** Escapes text for element content; a carriage return is a reference, or parsers would turn it into a line feed. */
function escapeXml(text: string): string {
  return text.replace(NOT_XML, "").replace(/[&<>"'\r]/g, (character) => ENTITIES[character]!);
}

/** Parsers turn tabs and line feeds in attribute values into spaces unless they are references. */
function escapeAttribute(text: string): string {
  return escapeXml(text).replace(/\t/g, "&#9;").replace(/\n/g, "&#10;");
}

type Attributes = Record<string, string | number>;

function startTag(name: string, attributes: Attributes): string {
  const attributeText = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${escapeAttribute(String(value))}"`)
    .join("");
  return `<${name}${attributeText}`;
}

/** An element on one line, holding text (escaped here) or nothing. */
function leaf(name: string, attributes: Attributes, text?: string): string {
  return text === undefined ? `${startTag(name, attributes)}/>` : `${startTag(name, attributes)}>${escapeXml(text)}</${name}>`;
}

/** An element holding child elements, one per line, indented. */
function parent(name: string, attributes: Attributes, children: string[]): string[] {
  if (children.length === 0) return [leaf(name, attributes)];
  return [`${startTag(name, attributes)}>`, ...children.map((line) => `  ${line}`), `</${name}>`];
}

/** `line:col rule message`, one issue per line. */
function issueLines(issues: readonly Issue[]): string {
  return issues.map((issue) => [issuePosition(issue), issue.rule, issueText(issue)].filter(Boolean).join(" ")).join("\n");
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
}

interface Suite extends Counts {
  /** The test case elements, line by line. */
  children: string[];
}

/**
 * Test case names: the item's id, or its place (`features[3]`, `line 12`) when it has no id or
 * shares it with another item of the file, since CI services merge test cases with equal names.
 */
function caseNames(file: FileReport): string[] {
  const idCounts = new Map<string, number>();
  for (const { id } of file.items) if (id !== undefined) idCounts.set(id, (idCounts.get(id) ?? 0) + 1);
  return file.items.map((item) =>
    item.id !== undefined && idCounts.get(item.id) === 1 ? item.id : (itemLabel(file, item) ?? "item"),
  );
}

function itemCase(file: FileReport, item: ItemResult, name: string): string[] {
  const failureText = issueLines(item.errors) + (item.omitted > 0 ? `\n${moreIssuesText(item)}` : "");
  // Every error found, also those --max-errors left out of the text.
  const errors = item.errors.length + (item.omittedErrors ?? 0);
  const failure = item.valid ? [] : [leaf("failure", { message: plural(errors, "error"), type: "basemodel" }, failureText)];
  const warnings = item.warnings.length === 0 ? [] : [leaf("system-out", {}, issueLines(item.warnings))];
  // The rule set that judged the item (--rules), as a test case property.
  const properties = item.ruleSet === undefined ? [] : parent("properties", {}, [leaf("property", { name: "ruleSet", value: item.ruleSet })]);
  return parent("testcase", { classname: file.file, name }, [...properties, ...failure, ...warnings]);
}

function readErrorSuite(file: FileReport, readError: string): Suite {
  const testcase = parent("testcase", { classname: file.file, name: "read" }, [leaf("error", { message: readError, type: "read-error" })]);
  return { tests: 1, failures: 0, errors: 1, children: testcase };
}

function itemsSuite(file: FileReport): Suite {
  const names = caseNames(file);
  return {
    tests: file.items.length,
    failures: file.items.filter((item) => !item.valid).length,
    errors: 0,
    children: file.items.flatMap((item, index) => itemCase(file, item, names[index]!)),
  };
}

function fileSuite(file: FileReport): Suite {
  return file.readError === undefined ? itemsSuite(file) : readErrorSuite(file, file.readError);
}

export const formatJunit: Formatter = (report) => {
  const suites = report.files.map((file) => ({ file, ...fileSuite(file) }));
  const total = (key: keyof Counts): number => suites.reduce((sum, suite) => sum + suite[key], 0);
  const suiteElements = suites.flatMap(({ file, tests, failures, errors, children }) =>
    parent("testsuite", { name: file.file, tests, failures, errors }, children),
  );
  const time = (report.summary.durationMs / 1000).toFixed(3);
  const root = parent("testsuites", { name: "basemodel", tests: total("tests"), failures: total("failures"), errors: total("errors"), time }, suiteElements);
  return `${['<?xml version="1.0" encoding="UTF-8"?>', ...root].join("\n")}\n`;
};
