/**
 * The real services accept every request member in camelCase and in snake_case (pydantic's
 * alias generator). Our schemas are written in camelCase; before validation, a body's
 * snake_case members are renamed, and an object that spells one member both ways is refused.
 * Renaming follows a per-object map so that user data (the tag keys of a filter, say) is never
 * touched.
 */
import type { ValidationError } from "./errors.js";

export interface AliasSpec {
  /** snake_case name -> camelCase name, for the members of this object. */
  names?: Record<string, string>;
  /** Specs of nested objects, by their camelCase member name. */
  members?: Record<string, AliasSpec>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A copy of `value` with snake_case members renamed to camelCase; the problems found (a member
 * spelled both ways) come back as 422 details with their location.
 */
export function normalizeAliases(value: unknown, spec: AliasSpec, loc: Array<string | number> = ["body"]): { value: unknown; problems: ValidationError[] } {
  if (!isObject(value)) return { value, problems: [] };
  const problems: ValidationError[] = [];
  const out: Record<string, unknown> = {};
  // defineProperty, not assignment: a member named "__proto__" must stay a plain member.
  const set = (name: string, member: unknown) => Object.defineProperty(out, name, { value: member, enumerable: true, writable: true, configurable: true });
  for (const [key, member] of Object.entries(value)) {
    const name = spec.names?.[key] ?? key;
    if (name !== key && Object.hasOwn(value, name)) {
      problems.push({ loc: [...loc, key], msg: `"${key}" and "${name}" are the same member spelled two ways; send one of them`, type: "duplicate_alias" });
      continue;
    }
    const nested = spec.members?.[name];
    if (nested === undefined) {
      set(name, member);
    } else {
      const inner = normalizeAliases(member, nested, [...loc, name]);
      set(name, inner.value);
      problems.push(...inner.problems);
    }
  }
  return { value: out, problems };
}
