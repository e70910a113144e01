/**
 * Requests of every route family that reads the store, with bodies that select data on Monaco
 * (each answers 200 from a Monaco store): the store contract compares their answers between
 * the stores, the fault tests ask them while the database is away.
 */
import { MONACO_CENTRE, ringOf } from "../../routes/helpers.js";

const AREA = ringOf(MONACO_CENTRE);
const KINDS = ["polygons", "lines", "nodes"];
const { minX, minY, maxX, maxY } = MONACO_CENTRE;
const CENTRE_POLYGON = { type: "Polygon", coordinates: [[[minX, minY], [maxX, minY], [maxX, maxY], [minX, maxY], [minX, minY]]] };

/** GET paths, on /latest and /v1. */
export const STORE_GETS: string[] = ["/status/", "/countries/?q=mon", "/countries/1124039/", "/osm_id/?osm_id=25722685", "/osm_id/?osm_id=1124039"].flatMap((path) => [
  `/latest${path}`,
  `/v1${path}`,
]);

/** POST paths with their bodies. */
export const STORE_POSTS: Array<[path: string, body: unknown]> = [
  ...[...KINDS, "all"].flatMap((kind): Array<[string, unknown]> => [
    [`/raw/${kind}`, { area: AREA }],
    [`/raw/${kind}`, { area: AREA, tags: "building" }],
    [`/raw/${kind}List`, { area: AREA, tags: "amenity=cafe,restaurant", orderBy: "timestamp" }],
    [`/raw/${kind}List`, { area: AREA, page: 1 }],
  ]),
  ["/raw/features", { area: AREA, featureType: "polygon" }],
  ["/raw/list", { area: AREA, orderBy: "id" }],
  ...KINDS.map((kind): [string, unknown] => [`/raw/${kind}/list`, { area: AREA }]),
  ...KINDS.map((kind): [string, unknown] => [`/raw-validation/${kind}`, { area: AREA, status: "badgeom" }]),
  ["/raw-validation/features", { area: AREA, status: "badgeom" }],
  ["/raw-validation/list", { area: AREA, status: "badvalue" }],
  ["/raw-validation/stats", { area: AREA, status: "badgeom" }],
  ...KINDS.map((kind): [string, unknown] => [`/stats/${kind}`, { area: AREA, tags: "building" }]),
  ["/stats/features", { area: AREA }],
  ["/stats/count", { area: AREA }],
  ["/latest/snapshot/plain/", { bbox: [minX, minY, maxX, maxY] }],
  ["/v1/snapshot/plain/", { bbox: [minX, minY, maxX, maxY], select: ["name", "highway"], where: [{ key: "highway", value: ["*"] }], lookIn: ["ways_line", "relations"] }],
  ["/v1/stats/polygon/", { iso3: "mco" }],
  ["/latest/stats/polygon/", { geometry: CENTRE_POLYGON }],
  ["/layers/count/", { geometry: CENTRE_POLYGON }],
  ...["dataQualityGeo", "dataQualityTags", "dataQualityTag", "dataQualityTagStats"].flatMap((report): Array<[string, unknown]> => [
    [`/report/${report}`, { fromDate: "2000-01-01T00:00:00" }],
    [`/report/${report}/csv`, { fromDate: "2000-01-01T00:00:00" }],
  ]),
];
