/**
 * The data quality findings of an area (Underpass's /report routes): geometry problems with their
 * locations (/report/dataQualityGeo), tag problems (/report/dataQualityTags), each also as CSV.
 */
import type { DataQualityGeoCollection, DataQualityRequest, DataQualityTagRow } from "basemodel/api";
import type { PolygonalGeometry, Position } from "../../../src/model/geojson.js";
import { geometryBBox } from "../../../src/model/geojson.js";
import { postForBlob, postJson } from "../../shared/http.js";

export const GEO_REPORT = "/report/dataQualityGeo";
export const TAG_REPORT = "/report/dataQualityTags";

/** The most findings of each report the page lists; more are said to be there. */
const PAGE_SIZE = 1000;

/** Before OpenStreetMap began: every finding, when no "From" date is given. */
const EVERY_DATE = "2004-01-01";

export interface FindingFilter {
  from: string;
  to: string;
  hashtag: string;
}

/** The reports' `area` ring: the polygon's outer ring, or the box around a MultiPolygon's. */
export function areaRing(geometry: PolygonalGeometry): string {
  let ring: Position[];
  if (geometry.type === "Polygon") ring = geometry.coordinates[0]!;
  else {
    const { minX, minY, maxX, maxY } = geometryBBox(geometry);
    ring = [[minX, minY], [maxX, minY], [maxX, maxY], [minX, maxY], [minX, minY]];
  }
  return ring.map(([lon, lat]) => `${lon} ${lat}`).join(", ");
}

export function reportRequest(geometry: PolygonalGeometry, filter: FindingFilter): DataQualityRequest {
  const hashtag = filter.hashtag.trim().replace(/^#/, "");
  return {
    fromDate: filter.from === "" ? EVERY_DATE : filter.from,
    ...(filter.to !== "" && { toDate: filter.to }),
    ...(hashtag !== "" && { hashtags: hashtag }),
    area: areaRing(geometry),
    pageSize: PAGE_SIZE,
  };
}

export interface Findings {
  geometry: DataQualityGeoCollection;
  tags: DataQualityTagRow[];
}

export async function readFindings(request: DataQualityRequest): Promise<Findings> {
  const [geometry, tags] = await Promise.all([postJson<DataQualityGeoCollection>(GEO_REPORT, request), postJson<DataQualityTagRow[]>(TAG_REPORT, request)]);
  return { geometry, tags };
}

/** A report's rows as the server writes them in CSV. */
export function findingsCsv(report: typeof GEO_REPORT | typeof TAG_REPORT, request: DataQualityRequest): Promise<Blob> {
  return postForBlob(`${report}/csv`, request);
}
