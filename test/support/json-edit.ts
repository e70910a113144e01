/** JSON values, and reading and changing them by path: what the differential tests mutate items with. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Segment = string | number;
/** An item as a test reads it from a fixture and then breaks it: a member may be given any value. */
export interface EditableItem {
  stac_extensions: string[];
  properties: Record<string, unknown>;
  assets: Record<string, unknown>;
  [member: string]: unknown;
}

export const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/** Every path of the value (the root included), in document order. */
export function allPaths(value: Json, at: Segment[] = [], out: Segment[][] = []): Segment[][] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((element, index) => allPaths(element, [...at, index], out));
  else if (isObject(value)) for (const key of Object.keys(value)) allPaths(value[key]!, [...at, key], out);
  return out;
}

export function get(root: Json, at: Segment[]): Json | undefined {
  let value: Json | undefined = root;
  for (const segment of at) {
    if (Array.isArray(value) && typeof segment === "number") value = value[segment];
    else if (isObject(value) && typeof segment === "string" && Object.hasOwn(value, segment)) value = value[segment];
    else return undefined;
  }
  return value;
}

/** Sets (or with `undefined` removes) the value at a path; returns the new root. */
export function set(root: Json, at: Segment[], value: Json | undefined): Json {
  if (at.length === 0) return value === undefined ? root : value;
  const parent = get(root, at.slice(0, -1));
  const last = at[at.length - 1]!;
  if (Array.isArray(parent) && typeof last === "number") {
    if (value === undefined) parent.splice(last, 1);
    else parent[last] = value;
  } else if (isObject(parent) && typeof last === "string") {
    if (value === undefined) delete parent[last];
    else parent[last] = value;
  }
  return root;
}
