/**
 * A required member written under a near miss of its name (`mlm:framwork`, `modle`,
 * `stac_extension`): its missing-member issue names what was written instead, suggests the
 * right name, and points at the member written. Runs only for items that miss a member.
 */
import type { Issue } from "./issue.js";
import { joinPointer, splitPointer, valueAt } from "./pointer.js";
import type { JsonSchema } from "./json-schema.js";
import { closest } from "./suggest.js";

/** Members of one object looked at for near misses, at most: a huge object must not make a slow failure. */
const MOST_MEMBERS = 1000;

const parentOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf("/"));

/** The defined members of each schema node asked about: an invalid item's objects ask again and again. */
const membersOfNode = new WeakMap<JsonSchema, Set<string>>();
export const NO_MEMBERS: ReadonlySet<string> = new Set();

function resolve(schema: JsonSchema, node: unknown): JsonSchema | undefined {
  let resolved = node;
  for (let hops = 0; hops < 8 && resolved !== null && typeof resolved === "object" && typeof (resolved as JsonSchema).$ref === "string"; hops++) {
    resolved = valueAt(schema, ((resolved as JsonSchema).$ref as string).slice(1));
  }
  return resolved !== null && typeof resolved === "object" ? (resolved as JsonSchema) : undefined;
}

/**
 * The members a schema defines for the object at an instance pointer (those it lists in
 * `properties` or `required`), found by following the pointer through `properties` and `items`.
 * Empty when the schema says nothing of that object.
 */
export function membersDefinedAt(schema: JsonSchema, pointer: string): ReadonlySet<string> {
  let node = resolve(schema, schema);
  for (const segment of splitPointer(pointer)) {
    if (node === undefined) return NO_MEMBERS;
    const properties = node.properties as JsonSchema | undefined;
    node = resolve(schema, properties && Object.hasOwn(properties, segment) ? properties[segment] : node.items);
  }
  if (node === undefined) return NO_MEMBERS;
  let members = membersOfNode.get(node);
  if (members === undefined) {
    const { properties, required } = node;
    members = new Set([...(properties && typeof properties === "object" ? Object.keys(properties) : []), ...(Array.isArray(required) ? (required as string[]) : [])]);
    membersOfNode.set(node, members);
  }
  return members;
}

/**
 * Gives each missing-member issue whose object holds a near miss of the missing name that near
 * miss: `actual` names it, the message says it was found and the suggestion gives the right
 * name. An issue is a missing member's when its path ends with the name in `expected`. A member
 * is never taken for a near miss of another when `known(objectPointer)` lists it (the schema
 * defines it: `mlm:input` is no misspelling of a missing `mlm:output`), and it is claimed by the
 * one missing name it is closest to.
 */
export function claimNearMisses(missing: readonly Issue[], data: unknown, known: (objectPointer: string) => ReadonlySet<string>): void {
  const byObject = new Map<string, Issue[]>();
  for (const issue of missing) {
    const object = parentOf(issue.path);
    byObject.set(object, [...(byObject.get(object) ?? []), issue]);
  }
  for (const [pointer, issues] of byObject) {
    const object = valueAt(data, pointer);
    if (object === null || typeof object !== "object" || Array.isArray(object)) continue;
    const names = issues.map((issue) => issue.expected as string);
    const defined = known(pointer);
    const taken = new Set<string>();
    for (const member of Object.keys(object).slice(0, MOST_MEMBERS)) {
      if (defined.has(member)) continue;
      const meant = closest(member, names);
      if (meant === undefined || taken.has(meant)) continue;
      taken.add(meant);
      const issue = issues[names.indexOf(meant)]!;
      issue.message += `; found ${JSON.stringify(member)}`;
      issue.actual = member;
      issue.suggestion = `did you mean ${JSON.stringify(meant)}?`;
    }
  }
}

/** The pointer of the member a missing-member issue found in its place, if it found one. */
export function nearMissPointer(issue: Issue): string | undefined {
  if (typeof issue.actual !== "string" || typeof issue.expected !== "string") return undefined;
  const object = parentOf(issue.path);
  return issue.path === joinPointer(object, issue.expected) ? joinPointer(object, issue.actual) : undefined;
}
