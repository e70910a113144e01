/**
 * --fair-checks: every keyword is one of fAIr's vocabulary, as fAIr's catalogue CI requires. The
 * vocabulary is data of ours (schema/rule-sets/keywords.json), versioned with the rule sets.
 */
import { readFileSync } from "node:fs";
import type { Issue } from "../../diagnostics/issue.js";
import { describeValue, issue, quoteList } from "../../diagnostics/messages.js";
import type { RuleSetName } from "../item/rule-sets.js";
import { closest } from "../../diagnostics/suggest.js";
import { packageFile } from "../../package-files.js";

interface VocabularyFile {
  vocabularies: Record<string, { keywords: string[] }>;
  ruleSets: Record<RuleSetName, string>;
}

let file: VocabularyFile | undefined;

/**
 * The words fAIr's CI accepts under a rule set. The file is read on first use; from src/validator/fair,
 * dist/fair and dist/cli-bundle alike it sits in ../../schema/rule-sets/.
 */
export function vocabulary(ruleSet: RuleSetName): readonly string[] {
  file ??= JSON.parse(readFileSync(packageFile("schema/rule-sets/keywords.json"), "utf8")) as VocabularyFile;
  return file.vocabularies[file.ruleSets[ruleSet]]!.keywords;
}

/** One issue per keyword outside the vocabulary, at the keyword. Keywords that are not strings are the schema's to report. */
export function keywordIssues(keywords: unknown, ruleSet: RuleSetName): Issue[] {
  if (!Array.isArray(keywords)) return [];
  const words = vocabulary(ruleSet);
  const issues: Issue[] = [];
  keywords.forEach((keyword, index) => {
    if (typeof keyword !== "string" || words.includes(keyword)) return;
    const near = closest(keyword, words);
    issues.push(
      issue("fair-keyword", `/properties/keywords/${index}`, `properties.keywords[${index}] is not a keyword fAIr's catalogue accepts, which are ${quoteList(words)}; found ${describeValue(keyword)}`, {
        expected: [...words],
        actual: keyword,
        ...(near !== undefined && { suggestion: `did you mean ${JSON.stringify(near)}?` }),
      }),
    );
  });
  return issues;
}
