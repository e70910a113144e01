import { describe, expect, it } from "vitest";
import { plainFeatureJson, plainSelection } from "../../../src/server/http/feature-json.js";
import type { Geometry } from "../../../src/model/geojson.js";
import type { OsmFeature } from "../../../src/model/features.js";

const POINT: Geometry = { type: "Point", coordinates: [7.42, 43.73] };

/** A feature as a store hands it over: its tags as `tagsJson` text, or (`undefined`) only as values. */
function feature(tags: Record<string, string>, tagsJson: string | undefined = JSON.stringify(tags)): OsmFeature {
  return {
    osmId: 42,
    version: 1,
    changeset: 7,
    timestamp: null,
    uid: null,
    user: null,
    tags,
    geometry: POINT,
    ...(tagsJson !== undefined && { stored: { tagsJson, geometryJson: JSON.stringify(POINT), geometryType: "Point" as const, bbox: { minX: 7.42, minY: 43.73, maxX: 7.42, maxY: 43.73 } } }),
  };
}

/** What the answer must hold, written out: osm_id first, then every tag but one named osm_id, in the tags' order. */
function expected(tags: Record<string, string>): string {
  return JSON.stringify({ osm_id: 42, ...Object.fromEntries(Object.entries(tags).filter(([key]) => key !== "osm_id")) });
}

describe("/snapshot/plain/ feature properties", () => {
  const cases: Array<[string, Record<string, string>, string?]> = [
    ["tags", { building: "yes", name: 'Caf\u00e9 "Riviera"', "addr:street": "Rue Grimaldi" }],
    ["no tags", {}],
    ["a tag named osm_id", { osm_id: "99", building: "yes" }],
    ['a key that ends in osm_id after a quote', { 'a"osm_id': "x", building: "yes" }],
    ["a value that writes osm_id", { note: '"osm_id": 1', building: "yes" }],
    ["integer-like keys, which objects order first", { building: "yes", "2": "b", "1": "a" }],
    ["tags text with spaces", { building: "yes" }, '{ "building": "yes" }'],
    ["empty tags text with a space", {}, "{ }"],
  ];
  for (const [name, tags, text] of cases) {
    it(`select ["*"] writes osm_id then every tag: ${name}`, () => {
      const answer = JSON.parse(plainFeatureJson(feature(tags, text), plainSelection(["*"])));
      expect(JSON.stringify(answer.properties)).toBe(expected(tags));
      expect(answer).toMatchObject({ type: "Feature", id: 42, geometry: POINT });
    });
  }

  it("is the same whether the store hands over tags text or values only", () => {
    const tags = { building: "yes", osm_id: "1", name: "x" };
    expect(plainFeatureJson(feature(tags), plainSelection(["*"]))).toBe(plainFeatureJson(feature(tags, undefined), plainSelection(["*"])));
  });

  it("writes the selected tags only, null where a feature lacks one", () => {
    const answer = JSON.parse(plainFeatureJson(feature({ building: "yes", name: "x" }), plainSelection(["name", "height", "osm_id"])));
    expect(answer.properties).toEqual({ osm_id: 42, name: "x", height: null });
  });
});
