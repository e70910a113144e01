/** JSON Pointer (RFC 6901) helpers. */

export function escapeSegment(segment: string): string {
  return segment.includes("~") || segment.includes("/") ? segment.replace(/~/g, "~0").replace(/\//g, "~1") : segment;
}

export function unescapeSegment(segment: string): string {
  return segment.includes("~") ? segment.replace(/~1/g, "/").replace(/~0/g, "~") : segment;
}

export function joinPointer(base: string, segment: string | number): string {
  return `${base}/${typeof segment === "number" ? segment : escapeSegment(segment)}`;
}

export function splitPointer(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map(unescapeSegment);
}

/**
 * The pointer as a person reads it: `properties.mlm:input[0].pre_processing_function`.
 * Segments that would be ambiguous in dotted form are quoted; the empty pointer is `root`.
 */
export function describePointer(pointer: string, root = "the item"): string {
  let out = "";
  for (const segment of splitPointer(pointer)) {
    if (/^(0|[1-9]\d*)$/.test(segment)) out += `[${segment}]`;
    else if (/^[\w:-]+$/.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === "" ? root : out;
}

/** The value at a pointer, or undefined when the path does not exist. */
export function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const segment of splitPointer(pointer)) {
    if (value === null || typeof value !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
