import { describe, expect, it } from "vitest";
import { rawFeatureJson } from "../../../src/server/http/feature-json.js";
import type { OsmFeature } from "../../../src/model/features.js";
import type { Geometry } from "../../../src/model/geojson.js";

const geometry: Geometry = { type: "Polygon", coordinates: [[[7.41, 43.73], [7.42, 43.73], [7.42, 43.74], [7.41, 43.73]]] };
const tags = { building: "yes", name: 'Villa "Les Roses" \u2013 \u{1F3E0}\n' };

/** A feature as a store reads it: its tags and geometry as JSON text beside it. */
function stored(feature: Omit<OsmFeature, "stored">): OsmFeature {
  return { ...feature, stored: { tagsJson: JSON.stringify(feature.tags), geometryJson: JSON.stringify(feature.geometry), geometryType: feature.geometry.type } };
}

/** The answer's Feature as JSON.stringify writes it, member by member in the wire's order. */
function serialised(feature: OsmFeature, annotations: { status: string | null; hashtags: string[]; editor: string | null; created_at: string | null; closed_at: string | null }) {
  const properties = { type: "Polygon", id: feature.osmId, timestamp: feature.timestamp, version: feature.version, changeset: feature.changeset, ...annotations, tags: feature.tags };
  return JSON.stringify({ type: "Feature", id: feature.osmId, geometry: feature.geometry, properties });
}

describe("a /raw feature as JSON text", () => {
  it("is the bytes JSON.stringify writes for the same feature, its text escaped and its unknowns null", () => {
    const annotated = stored({
      osmId: 42,
      version: 3,
      changeset: 7,
      timestamp: "2025-01-01T21:21:00Z",
      uid: 1,
      user: "someone",
      tags,
      geometry,
      annotations: { statuses: ["badgeom", "overlapping"], hashtags: ["#hotosm-project-1", 'say "hi"'], editor: "iD 2.30\t\u00e9", createdAt: "2025-01-01T20:00:00Z", closedAt: null },
    });
    expect(rawFeatureJson({ table: "ways_poly", feature: annotated })).toBe(
      serialised(annotated, { status: "badgeom", hashtags: ["#hotosm-project-1", 'say "hi"'], editor: "iD 2.30\t\u00e9", created_at: "2025-01-01T20:00:00Z", closed_at: null }),
    );
    const bare = stored({ osmId: 43, version: null, changeset: null, timestamp: null, uid: null, user: null, tags: {}, geometry });
    expect(rawFeatureJson({ table: "ways_poly", feature: bare })).toBe(serialised(bare, { status: null, hashtags: [], editor: null, created_at: null, closed_at: null }));
  });
});
