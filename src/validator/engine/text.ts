import { decodeText, mayHaveDuplicateKeys, parseJson } from "../item/decode.js";
import type { Engine } from "./engine.js";
import type { Issue, RuleId } from "../../diagnostics/issue.js";
import type { ItemResult, ValidationResult } from "../item/result.js";
import { nearMissPointer } from "../../diagnostics/near-miss.js";
import { isNotAnItem } from "../item/not-an-item.js";
import { describePointer, joinPointer } from "../../diagnostics/pointer.js";
import { SourceMap, type Span } from "../item/positions.js";
import { ruleById } from "../../diagnostics/rules.js";

const TARGETS: Partial<Record<RuleId, "key" | "parent">> = {
  required: "parent",
  "unknown-prefixed-property": "key",
  "duplicate-key": "key",
  "fair-hyperparameter-spec": "key",
};

function place(issue: Issue, span: Span, lineOffset: number): void {
  issue.line = span.line + lineOffset;
  issue.column = span.column;
  issue.endLine = span.endLine + lineOffset;
  issue.endColumn = span.endColumn;
}

/**
 * Gives every issue a position; issues that already have one (syntax, encoding, duplicate keys)
 * keep it. A missing member written under a near miss of its name is shown where it is written.
 */
export function locateIssues(issues: readonly Issue[], map: SourceMap, lineOffset = 0): void {
  for (const issue of issues) {
    if (issue.line !== undefined) continue;
    const nearMiss = nearMissPointer(issue);
    place(issue, nearMiss === undefined ? map.locate(issue.path, TARGETS[issue.rule] ?? "value") : map.locate(nearMiss, "key"), lineOffset);
  }
}

export function duplicateKeyIssues(map: SourceMap): Issue[] {
  return map.duplicateKeys().map(({ objectPointer, key, span }) => {
    const issue: Issue = {
      rule: "duplicate-key",
      severity: ruleById("duplicate-key").severity,
      path: joinPointer(objectPointer, key),
      message: `${JSON.stringify(key)} appears more than once in ${describePointer(objectPointer)}; JSON readers keep only the last value`,
      actual: key,
    };
    place(issue, span, 0);
    return issue;
  });
}

/** The issues of a text that fails before validation (encoding, syntax), or its parsed value. */
export function readText(input: string | Uint8Array): { text: string; value: unknown } | { issue: Issue } {
  const decoded = decodeText(input);
  if ("issue" in decoded) return decoded;
  const parsed = parseJson(decoded.text);
  if ("issue" in parsed) return parsed;
  return { text: decoded.text, value: parsed.value };
}

function isCollection(value: unknown): value is { features: unknown[] } {
  return (
    value !== null &&
    typeof value === "object" &&
    (value as { type?: unknown }).type === "FeatureCollection" &&
    Array.isArray((value as { features?: unknown }).features)
  );
}

/** The items of a parsed JSON value: the value itself, or with `splitCollections` each feature of a GeoJSON FeatureCollection / STAC ItemCollection. */
function membersOf(value: unknown, splitCollections: boolean): Array<{ value: unknown; pointer: string }> {
  return splitCollections && isCollection(value) ? value.features.map((feature, index) => ({ value: feature, pointer: `/features/${index}` })) : [{ value, pointer: "" }];
}

/** The non-blank lines of NDJSON text, without their line ends, with their 0-based line numbers. */
function ndjsonLines(text: string): Array<[line: string, index: number]> {
  return text.split("\n").flatMap((raw, index): Array<[string, number]> => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    return line.trim() === "" ? [] : [[line, index]];
  });
}

/**
 * The items of a parsed JSON text (see membersOf). The text is read for positions only when
 * something was found. `lineOffset` shifts lines (an NDJSON line's place in its file).
 */
export function validateParsed(engine: Engine, text: string, value: unknown, lineOffset: number, splitCollections: boolean): ItemResult[] {
  let members = membersOf(value, splitCollections);
  let found = members.map((member) => engine.check(member.value, member.pointer));
  // Features none of which is an item (a GeoJSON file of buildings): one issue for the file, not one per feature.
  if (members[0]?.pointer !== "" && found.length > 0 && found.every(isNotAnItem)) {
    members = [{ value, pointer: "" }];
    found = [engine.check(value)];
  }
  // A maybe is settled here: the position parse lists the members actually written twice.
  const maybeDuplicates = mayHaveDuplicateKeys(text, value);
  const map = SourceMap.of(text, !maybeDuplicates, value);
  if (maybeDuplicates) {
    for (const issue of duplicateKeyIssues(map)) {
      const owner = members.findIndex((member) => member.pointer !== "" && issue.path.startsWith(`${member.pointer}/`));
      found[Math.max(owner, 0)]!.push(shift(issue, lineOffset));
    }
  }
  return members.map((member, index) => {
    const result = engine.finish(found[index]!, engine.judged(member.value));
    locateIssues(result.errors, map, lineOffset);
    locateIssues(result.warnings, map, lineOffset);
    const item: ItemResult = { index, pointer: member.pointer, ...result };
    if (member.pointer === "") item.line = 1 + lineOffset;
    else item.line = map.locate(member.pointer, "value").line + lineOffset;
    const id = (member.value as { id?: unknown } | null)?.id;
    if (typeof id === "string") item.id = id;
    return item;
  });
}

function failed(engine: Engine, issue: Issue, index: number, lineOffset: number): ItemResult {
  return { index, pointer: "", line: 1 + lineOffset, ...engine.finish([shift(issue, lineOffset)]) };
}

/** One item from JSON text, with positions on every issue. */
export function validateText(engine: Engine, input: string | Uint8Array): ValidationResult {
  const read = readText(input);
  const [item] = "issue" in read ? [failed(engine, read.issue, 0, 0)] : validateParsed(engine, read.text, read.value, 0, false);
  // The result without the item's place in a document, which a lone text does not have.
  const { index, pointer, line, id, ...result } = item!;
  return result;
}

export type DocumentFormat = "json" | "ndjson";

/**
 * Every item of a document: a lone item or a collection ("json"), or one item per non-blank
 * line ("ndjson"), each line checked on its own so that one bad line does not hide the rest.
 * `seen` is given each JSON value parsed (the document, or each line), so that a caller who
 * needs the value too does not parse the text again.
 */
export function validateDocument(engine: Engine, input: string | Uint8Array, format: DocumentFormat, seen?: (value: unknown) => void): ItemResult[] {
  if (format === "json") {
    const read = readText(input);
    if ("issue" in read) return [failed(engine, read.issue, 0, 0)];
    seen?.(read.value);
    return validateParsed(engine, read.text, read.value, 0, true);
  }
  const decoded = decodeText(input);
  if ("issue" in decoded) return [failed(engine, decoded.issue, 0, 0)];
  const items: ItemResult[] = [];
  for (const [line, lineIndex] of ndjsonLines(decoded.text)) {
    const parsed = parseJson(line);
    if ("value" in parsed) seen?.(parsed.value);
    const results =
      "issue" in parsed ? [failed(engine, parsed.issue, items.length, lineIndex)] : validateParsed(engine, line, parsed.value, lineIndex, false);
    for (const result of results) items.push({ ...result, index: items.length });
  }
  return items;
}

/** One item of a document, as validateDocument reads it: its value, its pointer, and the text its positions are in. */
export interface DocumentItem {
  value: unknown;
  pointer: string;
  /** The whole JSON text, or the item's NDJSON line. */
  text: string;
  /** The 0-based line where `text` starts in the file. */
  lineOffset: number;
}

/** The items of a document that parse, for what runs beside validation (--fetch, --check-links); what does not parse, validation reports. */
export function documentItems(input: string | Uint8Array, format: DocumentFormat): DocumentItem[] {
  const decoded = decodeText(input);
  if ("issue" in decoded) return [];
  const parts: Array<[text: string, lineOffset: number]> = format === "json" ? [[decoded.text, 0]] : ndjsonLines(decoded.text);
  return parts.flatMap(([text, lineOffset]) => {
    const parsed = parseJson(text);
    return "issue" in parsed ? [] : membersOf(parsed.value, format === "json").map((member) => ({ ...member, text, lineOffset }));
  });
}

function shift(issue: Issue, lineOffset: number): Issue {
  if (lineOffset && issue.line !== undefined) {
    issue.line += lineOffset;
    if (issue.endLine !== undefined) issue.endLine += lineOffset;
  }
  return issue;
}

/** The items of a parsed document: the value, or each feature of a collection (as validateDocument splits them). */
export function itemValues(value: unknown): unknown[] {
  return membersOf(value, true).map((member) => member.value);
}

/**
 * The values of a text's items, read as validateDocument reads them, for what they need loaded
 * (load.ts); a text or a line that does not parse has none.
 */
export function documentValues(input: string | Uint8Array, format: DocumentFormat): unknown[] {
  if (format === "json") {
    const read = readText(input);
    return "issue" in read ? [] : itemValues(read.value);
  }
  const decoded = decodeText(input);
  if ("issue" in decoded) return [];
  return ndjsonLines(decoded.text).flatMap(([line]) => {
    const parsed = parseJson(line);
    return "issue" in parsed ? [] : [parsed.value];
  });
}
