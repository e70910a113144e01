/**
 * Writes change actions back as osmChange XML: what osm2pgsql --append reads, which wants its
 * input in order (nodes, then ways, then relations, each by id) and refuses anything else.
 * Consecutive actions of one kind share a block; every value is escaped as an XML attribute
 * (a tag value's line breaks and tabs survive as character references).
 */
import type { ChangeAction } from "./change.js";
import { formatOsmTimestamp, type OsmMetadata, type OsmTags } from "../../model/osm.js";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;" };
const escape = (value: string): string => value.replace(/[&<>"\n\r\t]/g, (character) => ESCAPES[character]!);

function attributes(values: Record<string, string | number | null>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== null)
    .map(([name, value]) => ` ${name}="${escape(String(value))}"`)
    .join("");
}

function metadata(entity: OsmMetadata & { id: number }): Record<string, string | number | null> {
  return {
    id: entity.id,
    version: entity.version,
    timestamp: entity.timestamp === null ? null : formatOsmTimestamp(entity.timestamp),
    changeset: entity.changeset,
    uid: entity.uid,
    user: entity.user,
  };
}

const tagLines = (tags: OsmTags): string[] => Object.entries(tags).map(([key, value]) => `    <tag${attributes({ k: key, v: value })}/>`);

function element({ action, entity }: ChangeAction): string {
  if (action === "delete") return `    <${entity.type}${attributes(metadata(entity))}/>`;
  const children =
    entity.type === "node"
      ? []
      : entity.type === "way"
        ? entity.refs.map((ref) => `    <nd ref="${ref}"/>`)
        : entity.members.map((member) => `    <member${attributes({ type: member.type, ref: member.ref, role: member.role })}/>`);
  const open = `    <${entity.type}${attributes({ ...metadata(entity), ...(entity.type === "node" && { lat: entity.lat, lon: entity.lon }) })}`;
  const inner = [...children, ...tagLines(entity.tags)].map((line) => `  ${line}`);
  return inner.length === 0 ? `${open}/>` : [`${open}>`, ...inner, `    </${entity.type}>`].join("\n");
}

/** The osmChange document of `actions`, in their order. */
export function osmChangeXml(actions: readonly ChangeAction[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osmChange version="0.6" generator="basemodel">'];
  let block: ChangeAction["action"] | null = null;
  for (const action of actions) {
    if (action.action !== block) {
      if (block !== null) lines.push(`  </${block}>`);
      block = action.action;
      lines.push(`  <${block}>`);
    }
    lines.push(element(action));
  }
  if (block !== null) lines.push(`  </${block}>`);
  lines.push("</osmChange>", "");
  return lines.join("\n");
}
