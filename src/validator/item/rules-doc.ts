import { ruleSetCatalogue } from "./rule-set-catalogue.js";
import { rules } from "../../diagnostics/rules.js";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The rules table in Markdown: printed by `basemodel rules`, and docs/rules.md (a test keeps the two equal). */
export function rulesMarkdown(): string {
  const rows = rules.map(
    (rule) => `| \`${rule.id}\` | ${rule.severity} | ${cell(rule.summary)} | ${cell(rule.appliesTo)} | ${cell(rule.example)} |`,
  );
  const details = rules.flatMap((rule) => (rule.details === undefined ? [] : [`### \`${rule.id}\``, "", rule.details, ""]));
  return [
    "# Rules",
    "",
    "Every issue `basemodel` reports carries one of these stable rule ids. With `--strict` (or the",
    "`strict` option) every warning counts as an error. Generated from `src/diagnostics/rules.ts` by",
    "`basemodel rules`; a test fails when this file and the code disagree.",
    "",
    "| Rule | Severity | What it checks | Where | Example |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    ...(details.length > 0 ? ["## How some rules decide", "", ...details] : []),
    ...ruleSetsMarkdown(),
  ].join("\n");
}

/** fAIr's rule sets (`--rules`), each with what it asks beyond the one before it. */
function ruleSetsMarkdown(): string[] {
  return [
    "## Rule sets",
    "",
    "`--rules <set>` (library: `rules`) chooses which of fAIr's rule sets judges the items; the summary",
    "line names the set that judged them. Each is a schema of basemodel's, written from the rules fAIr",
    "publishes and compiled ahead of time.",
    "",
    ...ruleSetCatalogue.flatMap((set) => [
      `### \`${set.name}\``,
      "",
      set.summary,
      "",
      ...(set.rules.length === 0 ? [] : ["| Rule | Example |", "|---|---|", ...set.rules.map((entry) => `| ${cell(entry.rule)} | ${cell(entry.example)} |`), ""]),
    ]),
  ];
}
