import { describe, expect, it } from "vitest";
import { readPbf } from "../../../src/server/osm/pbf.js";
import type { OsmBlock, OsmEntity } from "../../../src/model/osm.js";
import { MONACO } from "./helpers.js";

async function collect(blocks: AsyncIterable<OsmBlock>): Promise<{ headers: OsmBlock[]; entities: OsmEntity[] }> {
  const headers: OsmBlock[] = [];
  const entities: OsmEntity[] = [];
  for await (const block of blocks) {
    if (block.kind === "header") headers.push(block);
    else entities.push(...block.entities);
  }
  return { headers, entities };
}

describe("readPbf on the Monaco extract", () => {
  it("decodes the header, then every object (counts as `osmium fileinfo -e`)", { timeout: 300_000 }, async () => {
    const { headers, entities } = await collect(readPbf(MONACO));
    expect(headers).toEqual([
      { kind: "header", header: { replicationTimestamp: "2025-01-01T21:21:00Z", bbox: [7.408583, 43.483817, 7.595671, 43.75293] } },
    ]);
    const count = (type: string) => entities.filter((entity) => entity.type === type).length;
    expect([count("node"), count("way"), count("relation")]).toEqual([38995, 5708, 308]);

    // Values checked against `osmium getid ... -f opl`; the extract strips changeset/uid/user.
    expect(entities.find((e) => e.id === 21911883 && e.type === "node")).toEqual({
      type: "node",
      id: 21911883,
      lon: 7.4229093,
      lat: 43.7371175,
      tags: {},
      version: 6,
      timestamp: Date.parse("2012-05-01T15:06:19Z"),
      changeset: null,
      uid: null,
      user: null,
    });
    const way = entities.find((e) => e.id === 4097656 && e.type === "way");
    expect(way).toMatchObject({
      version: 17,
      timestamp: Date.parse("2023-08-27T16:07:12Z"),
      tags: { highway: "secondary", name: "Avenue Princesse Alice" },
    });
    expect(way?.type === "way" && way.refs.slice(0, 3)).toEqual([21912089, 7265761724, 1079750744]);
    const relation = entities.find((e) => e.id === 7385 && e.type === "relation");
    expect(relation).toMatchObject({ version: 250, tags: { boundary: "administrative", name: "Alpes-Maritimes" } });
    expect(relation?.type === "relation" && relation.members.slice(0, 3)).toEqual([
      { type: "node", ref: 1701090139, role: "admin_centre" },
      { type: "node", ref: 3266599461, role: "label" },
      { type: "way", ref: 30836152, role: "outer" },
    ]);
  });

  it("skips nodes when asked and reports its progress in bytes", { timeout: 300_000 }, async () => {
    const progress: number[] = [];
    const { entities } = await collect(readPbf(MONACO, { skipNodes: true, onBytesRead: (bytes) => progress.push(bytes) }));
    expect(entities.some((entity) => entity.type === "node")).toBe(false);
    expect(entities).toHaveLength(5708 + 308);
    expect(progress[progress.length - 1]).toBe(626_624);
  });
});
