/**
 * The examples the schemas give, in the OpenAPI document and its "Try it out": places, tags and
 * hashtags of the demo town (src/server/demo), so that each one sent to `basemodel serve` with no --db
 * answers with data.
 */
import { DEMO_TEST_AREA } from "../demo/town.js";

const { minX, minY, maxX, maxY } = DEMO_TEST_AREA;
const corners = [
  [minX, minY],
  [maxX, minY],
  [maxX, maxY],
  [minX, maxY],
  [minX, minY],
];

/** About 1 km² in the centre of the town: over 100 buildings, streets, shops, the town hall. */
export const EXAMPLE_BBOX = [minX, minY, maxX, maxY];
export const EXAMPLE_RING = corners.map(([x, y]) => `${x} ${y}`).join(", ");
export const EXAMPLE_POLYGON = { type: "Polygon", coordinates: [corners] };
/** Tags found on polygons (building), lines (highway) and nodes (amenity) alike. */
export const EXAMPLE_TAGS = "building,highway,amenity";
/** A Tasking Manager project whose changesets, made in 2022, touched every kind of feature. */
export const EXAMPLE_PROJECT = { hashtag: "hotosm-project-90242", from: "2022-01-01T00:00:00", to: "2022-12-31" };
/** A data quality status some buildings of the town's centre have. */
export const EXAMPLE_STATUS = "badgeom";
/** A project and a campaign whose edits left data quality problems of every kind. */
export const EXAMPLE_REPORT = { fromDate: "2020-01-01T00:00:00", toDate: "2024-12-31T23:59:59", hashtags: ["hotosm-project-90583", "mapathon"] };
