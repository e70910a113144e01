// The members of a JSON Schema by instance path ("/properties/mlm:tasks/[]"), following local
// $refs: what an editor shows on hover for a member is the description there or at its target.

/** The schema a local `$ref` ("#/definitions/x") points to. */
function target(root, ref) {
  return ref
    .slice(2)
    .split("/")
    .reduce((node, key) => node[key.replaceAll("~1", "/").replaceAll("~0", "~")], root);
}

/** Yields `[path, member, resolved]` for every member: `resolved` is the member with its $ref followed. */
export function* schemaMembers(root, node = root, path = "", refs = new Set()) {
  if (node === null || typeof node !== "object") return;
  if (typeof node.$ref === "string" && node.$ref.startsWith("#/")) {
    if (refs.has(node.$ref)) return;
    yield* schemaMembers(root, target(root, node.$ref), path, new Set([...refs, node.$ref]));
  }
  for (const [key, member] of Object.entries(node.properties ?? {})) {
    const resolved = typeof member.$ref === "string" && member.$ref.startsWith("#/") ? target(root, member.$ref) : member;
    yield [`${path}/${key}`, member, resolved];
    yield* schemaMembers(root, member, `${path}/${key}`, refs);
  }
  if (node.items !== null && typeof node.items === "object") yield* schemaMembers(root, node.items, `${path}/[]`, refs);
  for (const keyword of ["allOf", "anyOf", "oneOf"]) for (const part of node[keyword] ?? []) yield* schemaMembers(root, part, path, refs);
  for (const keyword of ["then", "else"]) if (node[keyword]) yield* schemaMembers(root, node[keyword], path, refs);
}

/** The description an editor shows for a member. */
export const describedAs = (member, resolved) => member.description ?? resolved.description;

/**
 * Gives every member of `schema` that has no description the one `base` has at the same instance
 * path (and its markdownDescription), so that rule sets written after the specification's schema
 * say on hover what the specification's members are without repeating their words.
 */
export function inheritDescriptions(schema, base) {
  const known = new Map();
  for (const [path, member, resolved] of schemaMembers(base)) {
    const description = describedAs(member, resolved);
    if (description !== undefined) known.set(path, { description, markdownDescription: member.markdownDescription ?? resolved.markdownDescription });
  }
  for (const [path, member, resolved] of schemaMembers(schema)) {
    const inherited = known.get(path);
    if (inherited === undefined || describedAs(member, resolved) !== undefined) continue;
    member.description = inherited.description;
    const hasEnum = (resolved.enum ?? resolved.items?.enum) !== undefined;
    if (inherited.markdownDescription !== undefined && hasEnum) member.markdownDescription = inherited.markdownDescription;
  }
  return schema;
}
