/**
 * --fair-checks: every keyword is one of fAIr's vocabulary, as fAIr's catalogue CI requires. The
 * vocabulary is data of ours (schema/rule-sets/keywords.json, built into src/generated/keywords.ts),
 * versioned with the rule sets.
 */
import { keywords as vocabularies } from "../../generated/keywords.js";
import type { Issue } from "../../diagnostics/issue.js";
import { describeValue, issue, quoteList } from "../../diagnostics/messages.js";
import type { RuleSetName } from "../item/rule-sets.js";
import { closest } from "../../diagnostics/suggest.js";

/** The words fAIr's CI accepts under a rule set. */
export function vocabulary(ruleSet: RuleSetName): readonly string[] {
  return vocabularies.vocabularies[vocabularies.ruleSets[ruleSet]];
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
