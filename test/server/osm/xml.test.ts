import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readOsmXml } from "../../../src/server/osm/xml.js";
import type { OsmBlock } from "../../../src/model/osm.js";
import { temporaryDirectory } from "./helpers.js";

describe("readOsmXml", () => {
  const directory = temporaryDirectory();

  async function read(xml: string, options = {}): Promise<OsmBlock[]> {
    const path = join(directory, `doc-${Math.random().toString(36).slice(2)}.osm`);
    writeFileSync(path, xml);
    const blocks: OsmBlock[] = [];
    for await (const block of readOsmXml(path, options)) blocks.push(block);
    return blocks;
  }

  const DOCUMENT = `<?xml version="1.0"?>
<osm version="0.6" timestamp="2025-02-03T04:05:06Z">
  <bounds minlat="1" minlon="2" maxlat="3" maxlon="4"/>
  <node id="1" lat="1.5" lon="2.5" version="3" changeset="0" uid="0" user="" timestamp="2020-01-01T00:00:00Z"/>
  <node id="2" lat="1.6" lon="2.6" visible="false"/>
  <way id="10" version="1"><nd ref="1"/><tag k="name" v="A &amp; B"/></way>
  <relation id="20"><member type="way" ref="10" role="outer"/><tag k="type" v="multipolygon"/></relation>
</osm>`;

  it("uses <osm timestamp> and <bounds> as the header, and reads entities like the PBF reader", async () => {
    const blocks = await read(DOCUMENT);
    expect(blocks[0]).toEqual({ kind: "header", header: { replicationTimestamp: "2025-02-03T04:05:06Z", bbox: [2, 1, 4, 3] } });
    const entities = blocks.flatMap((block) => (block.kind === "entities" ? block.entities : []));
    expect(entities).toEqual([
      // Stripped metadata (zeros, empty user) reads as unknown; the invisible node 2 is a deletion.
      { type: "node", id: 1, lon: 2.5, lat: 1.5, tags: {}, version: 3, timestamp: Date.parse("2020-01-01T00:00:00Z"), changeset: null, uid: null, user: null },
      { type: "way", id: 10, refs: [1], tags: { name: "A & B" }, version: 1, timestamp: null, changeset: null, uid: null, user: null },
      {
        type: "relation",
        id: 20,
        members: [{ type: "way", ref: 10, role: "outer" }],
        tags: { type: "multipolygon" },
        version: null,
        timestamp: null,
        changeset: null,
        uid: null,
        user: null,
      },
    ]);
  });

  it("skips nodes when asked", async () => {
    const blocks = await read(DOCUMENT, { skipNodes: true });
    const types = blocks.flatMap((block) => (block.kind === "entities" ? block.entities.map((e) => e.type) : []));
    expect(types).toEqual(["way", "relation"]);
  });

  it("gives no replication timestamp when <osm> has none (the importer falls back to the newest object)", async () => {
    const blocks = await read('<osm version="0.6"/>');
    expect(blocks).toEqual([{ kind: "header", header: { replicationTimestamp: null, bbox: null } }]);
  });
});
