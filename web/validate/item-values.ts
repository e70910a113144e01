/** The parsed value of a validated item, for its model card: read from the document as the validator read it. */
import type { ItemResult } from "basemodel";
import type { DocumentReport } from "./validation.js";

const parse = (text: string): unknown => JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** The member a JSON Pointer names ("" the value itself, "/features/3" a collection's member). */
function at(value: unknown, pointer: string): unknown {
  return pointer
    .split("/")
    .slice(1)
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((parent, token) => (parent !== null && typeof parent === "object" ? (parent as Record<string, unknown>)[token] : undefined), value);
}

/** The values of a document's valid items (which parse, being valid): a lone item, a collection's members, NDJSON lines. */
export function validItemValues(report: DocumentReport): Array<{ item: ItemResult; value: unknown }> {
  const valid = report.items.filter((item) => item.valid);
  if (valid.length === 0) return [];
  const text = report.document.text;
  if (report.format === "ndjson") {
    const lines = text.split("\n");
    return valid.map((item) => ({ item, value: parse(lines[(item.line ?? 1) - 1]!) }));
  }
  const document = parse(text);
  return valid.map((item) => ({ item, value: at(document, item.pointer) }));
}
