/**
 * The feature query API's `tags` grammar: comma-separated terms, each `key` (the key present)
 * or `key=value` (exact, case-sensitive), OR-ed. Spaces around terms, keys and values are
 * ignored; an empty term between commas is a mistake worth saying so.
 */
import { MAX_LIST_ITEMS, MAX_TAG_LENGTH } from "../api/limits.js";
import { preview } from "../../diagnostics/messages.js";
import type { TagFilter } from "../../model/query.js";
import { problem } from "./problems.js";

export function parseTagTerms(text: string | undefined, loc: Array<string | number>): TagFilter | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const terms = text.split(",");
  if (terms.length > MAX_LIST_ITEMS) throw problem(loc, `tags must hold at most ${MAX_LIST_ITEMS} terms; found ${terms.length}`, "too_long");
  const byKey = new Map<string, Set<string> | "any">();
  terms.forEach((raw, index) => {
    const term = raw.trim();
    if (term === "") throw problem(loc, `term ${index + 1} of ${preview(text)} is empty; write terms as key or key=value, separated by commas`);
    const equals = term.indexOf("=");
    const key = (equals === -1 ? term : term.slice(0, equals)).trim();
    if (key === "") throw problem(loc, `term ${index + 1} (${preview(term)}) has no key; write key or key=value`);
    checkLength(key, "key", index, loc);
    const known = byKey.get(key);
    if (equals === -1) {
      byKey.set(key, "any");
      return;
    }
    const value = term.slice(equals + 1).trim();
    if (value === "") throw problem(loc, `term ${index + 1} (${preview(term)}) has no value after "="; write ${key} alone to match any value`);
    checkLength(value, "value", index, loc);
    if (known === "any") return;
    byKey.set(key, (known ?? new Set()).add(value));
  });
  // Terms are OR-ed, so one condition per key with all its values says the same thing.
  return {
    join: "or",
    conditions: [...byKey].map(([key, values]) => ({ key, values: values === "any" ? [] : [...values] })),
  };
}

function checkLength(text: string, what: "key" | "value", index: number, loc: Array<string | number>): void {
  const length = [...text].length;
  if (length > MAX_TAG_LENGTH) {
    throw problem(loc, `the ${what} of term ${index + 1} is ${length} characters long; tag keys and values have at most ${MAX_TAG_LENGTH}`, "string_too_long");
  }
}
