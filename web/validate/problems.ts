/**
 * The list named "Problems": per document its name, per item of a document of several its place
 * (`features[3]`, `line 2`), then each problem as `basemodel validate` prints it (the library's
 * issueView: `line:column`, the message with the likely fix, the code frame), led by its
 * severity and rule. A problem is a button: pressing it shows its place in the editor.
 */
import { issueView, itemLabel, type FrameLine, type Issue, type ItemResult } from "basemodel";
import { el, type Child } from "../shared/dom.js";
import { PASTED } from "./documents.js";
import type { DocumentReport } from "./validation.js";

/** Called with the report and the issue whose place the user asked to see. */
export type ShowProblem = (report: DocumentReport, issue: Issue) => void;

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** The frame's lines, each segment in its style (the gutter dim; the marker and carets in the severity's colour). */
function frameElement(frame: FrameLine[]): HTMLElement {
  return el(
    "pre",
    { class: "frame" },
    ...frame.map((line) => el("span", { class: "frame-line" }, ...line.map((segment) => (segment.style === "plain" ? segment.text : el("span", { class: segment.style }, segment.text))))),
  );
}

function problemElement(report: DocumentReport, issue: Issue, show: ShowProblem): HTMLElement {
  const { position, text, frame } = issueView(issue, report.source);
  const line = el(
    "button",
    { type: "button", class: "problem-line" },
    el("span", { class: "position" }, position ?? "–"),
    " ",
    el("span", { class: "severity" }, issue.severity),
    " ",
    el("code", { class: "rule" }, issue.rule),
    " ",
    el("span", { class: "message" }, text),
  );
  line.addEventListener("click", () => show(report, issue));
  const frameLines = frame.length === 0 ? null : frameElement(frame);
  frameLines?.addEventListener("click", () => show(report, issue));
  return el("li", { class: `issue ${issue.severity}` }, line, frameLines);
}

const issuesOf = (item: ItemResult): Issue[] => [...item.errors, ...item.warnings];

/** The pasted text is named as the editor is. */
const documentName = (report: DocumentReport): string => (report.document.name === PASTED ? "Item JSON" : report.document.name);

function itemElements(report: DocumentReport, item: ItemResult, show: ShowProblem): Child[] {
  const issues = issuesOf(item);
  if (issues.length === 0 && item.omitted === 0) return [];
  const label = itemLabel(report, item);
  const title = label === undefined ? documentName(report) : `${documentName(report)}, ${label}`;
  return [
    label === undefined ? null : el("p", { class: "item-label" }, el("strong", {}, label), item.id === undefined ? "" : ` (id ${JSON.stringify(item.id)})`),
    el("ul", { class: "item-problems", "aria-label": `Problems of ${title}` }, ...issues.map((issue) => problemElement(report, issue, show))),
    item.omitted > 0 ? el("p", { class: "hint" }, `… and ${plural(item.omitted, "more issue")} (at most 100 are listed per item)`) : null,
  ];
}

function documentElement(report: DocumentReport, show: ShowProblem): HTMLElement | null {
  const items = report.items.flatMap((item) => itemElements(report, item, show));
  if (items.length === 0) return null;
  const read = report.format === "ndjson" ? " (NDJSON)" : "";
  return el("li", { class: "problem-document" }, el("h3", {}, `${documentName(report)}${read}`), ...items);
}

export function problemsList(reports: readonly DocumentReport[], show: ShowProblem): HTMLElement {
  return el("ul", { class: "problems", "aria-label": "Problems" }, ...reports.map((report) => documentElement(report, show)));
}

/** "2 files, 3 items: 2 valid, 1 invalid; 1 error, 2 warnings": every problem found, those beyond the list's limit too. */
export function summaryText(reports: readonly DocumentReport[]): string {
  const items = reports.flatMap((report) => report.items);
  const valid = items.filter((item) => item.valid).length;
  const count = (pick: (item: ItemResult) => number): number => items.reduce((sum, item) => sum + pick(item), 0);
  const errors = count((item) => item.errors.length + (item.omittedErrors ?? 0));
  const warnings = count((item) => item.warnings.length + (item.omittedWarnings ?? 0));
  const files = reports.length > 1 ? `${plural(reports.length, "file")}, ` : "";
  return `${files}${plural(items.length, "item")}: ${valid} valid, ${items.length - valid} invalid; ${plural(errors, "error")}, ${plural(warnings, "warning")}`;
}
