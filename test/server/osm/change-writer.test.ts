/** The osmChange writer: what it writes, the change reader reads back as the same actions. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readOsmChange, type ChangeAction } from "../../../src/server/osm/change.js";
import { osmChangeXml } from "../../../src/server/osm/change-writer.js";
import { temporaryDirectory } from "./helpers.js";

const AT = Date.parse("2025-01-10T10:15:00Z");
const meta = { version: 2, timestamp: AT, changeset: 160_000_001, uid: 42, user: 'Zoë "Z" <&>' };

const ACTIONS: ChangeAction[] = [
  { action: "create", entity: { type: "node", id: 12_000_000_001, ...meta, lon: 7.4219936, lat: 43.730838, tags: { name: "Line one\nline two\tand a tab & <more>", "name:ar": "مقهى" } } },
  { action: "modify", entity: { type: "node", id: 12_000_000_002, ...meta, version: null, timestamp: null, changeset: null, uid: null, user: null, lon: -0.0000001, lat: 0, tags: {} } },
  { action: "delete", entity: { type: "node", id: 12_000_000_003, ...meta } },
  { action: "create", entity: { type: "way", id: 12_000_000_901, ...meta, refs: [12_000_000_001, 12_000_000_002, 12_000_000_001], tags: { building: "yes" } } },
  { action: "modify", entity: { type: "relation", id: 12_000_000_951, ...meta, members: [{ type: "way", ref: 12_000_000_901, role: "outer" }, { type: "node", ref: 1, role: 'a "role"' }], tags: { type: "multipolygon" } } },
  { action: "delete", entity: { type: "relation", id: 12_000_000_952, ...meta } },
];

describe("osmChangeXml", () => {
  it("writes actions the change reader reads back unchanged: metadata, tags with quotes, markup, line breaks and tabs, members and their roles", async () => {
    const path = join(temporaryDirectory(), "written.osc");
    writeFileSync(path, osmChangeXml(ACTIONS));
    const { actions } = await readOsmChange(path);
    expect(actions.map(({ action, entity }) => ({ action, entity: { ...entity, ...("tags" in entity && { tags: { ...entity.tags } }) } }))).toEqual(ACTIONS);
  });

  it("puts consecutive actions of a kind in one block", () => {
    const xml = osmChangeXml(ACTIONS);
    expect(xml.match(/<(create|modify|delete)>/g)).toEqual(["<create>", "<modify>", "<delete>", "<create>", "<modify>", "<delete>"]);
    expect(osmChangeXml([ACTIONS[0]!, ACTIONS[0]!]).match(/<create>/g)).toHaveLength(1);
  });
});
