/**
 * SARIF 2.1.0, the format of GitHub code scanning: one run, one rule descriptor per rule of the
 * catalogue, one result per issue. Unreadable files are tool execution notifications, since no
 * rule was checked on them.
 */
import { createHash } from "node:crypto";
import { isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";
import type { Issue, RuleId } from "../../diagnostics/issue.js";
import { rules, type Rule } from "../../diagnostics/rules.js";
import { allIssues, issueText, moreIssuesText, type LocatedIssue } from "./labels.js";
import { portablePath } from "./portable-path.js";
import { toolInfo } from "./tool.js";
import type { FileReport, Formatter, RunReport } from "./types.js";

const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
/** Named with a version: changing what the fingerprint hashes must change the name, or alerts would be matched wrongly. */
const FINGERPRINT_NAME = "basemodel/v1";
/** Paths are relative to the checkout root, which code scanning knows by this name. */
const SOURCE_ROOT = "%SRCROOT%";

const ruleIndex = new Map<RuleId, number>(rules.map((rule, index) => [rule.id, index]));

/** "json-syntax" -> "JsonSyntax". */
function pascalCase(id: string): string {
  return id
    .split("-")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

function ruleDescriptor(rule: Rule) {
  const fullDescription = `${rule.summary} Applies to: ${rule.appliesTo}. Example: ${rule.example}`;
  return {
    id: rule.id,
    name: pascalCase(rule.id),
    shortDescription: { text: rule.summary },
    fullDescription: { text: fullDescription },
    defaultConfiguration: { level: rule.severity },
    help: {
      text: fullDescription,
      markdown: `${rule.summary}\n\n**Applies to:** ${rule.appliesTo}\n\n**Example:** ${rule.example}`,
    },
  };
}

/**
 * A relative URI reference resolved against the checkout (the portable path with each segment
 * percent-encoded), or a file URI for a file outside the working directory.
 */
function artifactLocation(file: FileReport): { uri: string; uriBaseId?: string } {
  const path = portablePath(file.file);
  if (isAbsolute(path)) return { uri: pathToFileURL(path).href };
  return { uri: path.split("/").map(encodeURIComponent).join("/"), uriBaseId: SOURCE_ROOT };
}

/** SARIF requires a start line; 1 stands for "somewhere in the file". Columns count UTF-16 code units, as ours do. */
function region(issue: Issue) {
  if (issue.line === undefined) return { startLine: 1 };
  return { startLine: issue.line, startColumn: issue.column, endLine: issue.endLine, endColumn: issue.endColumn };
}

/**
 * Identifies an issue across commits, whatever lines are added above it. The item index tells
 * apart NDJSON lines, whose issue paths all start from their own line's item.
 */
function fingerprint({ file, item, issue }: LocatedIssue): string {
  return createHash("sha256")
    .update(JSON.stringify([artifactLocation(file).uri, item.index, issue.rule, issue.path]))
    .digest("hex");
}

function result(located: LocatedIssue) {
  const { file, item, issue } = located;
  return {
    ruleId: issue.rule,
    ruleIndex: ruleIndex.get(issue.rule),
    level: issue.severity,
    message: { text: issueText(issue) },
    locations: [{ physicalLocation: { artifactLocation: artifactLocation(file), region: region(issue) } }],
    partialFingerprints: { [FINGERPRINT_NAME]: fingerprint(located) },
    // The rule set that judged the item (--rules), in the result's property bag.
    properties: item.ruleSet === undefined ? undefined : { ruleSet: item.ruleSet },
  };
}

/** Files the tool could not read, and items whose issues maxErrors cut short. */
function notifications(report: RunReport) {
  return report.files.flatMap((file) => {
    const locations = [{ physicalLocation: { artifactLocation: artifactLocation(file) } }];
    const unread = file.readError === undefined ? [] : [{ level: "error", message: { text: file.readError }, locations }];
    const cutShort = file.items
      .filter((item) => item.omitted > 0)
      .map((item) => ({ level: "warning", message: { text: moreIssuesText(item) }, locations }));
    return [...unread, ...cutShort];
  });
}

export const formatSarif: Formatter = (report) => {
  const { name, version, homepage } = toolInfo();
  const log = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name, version, semanticVersion: version, informationUri: homepage, rules: rules.map(ruleDescriptor) } },
        invocations: [{ executionSuccessful: report.files.every((file) => file.readError === undefined), toolExecutionNotifications: notifications(report) }],
        columnKind: "utf16CodeUnits",
        results: Array.from(allIssues(report), result),
      },
    ],
  };
  // JSON.stringify drops the members left undefined (an unknown column, a missing homepage).
  return `${JSON.stringify(log, null, 2)}\n`;
};
