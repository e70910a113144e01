/** Stored data quality findings as the reports' wire rows. */
import type { DataQualityGeoFeature, DataQualityGeoProperties, DataQualityTagRow, DataQualityTagStat, GeometryStatus, OsmObjectType, TagStatus } from "../api/report.js";
import { osmTypeOfTable, type FindingRow, type FindingValueCount, type FindingValueRow } from "../../model/features.js";

function osmLink(type: OsmObjectType, osmId: number): string {
  return `https://www.openstreetmap.org/${type}/${osmId}`;
}

// The casts below hold because the reports ask the store only for the statuses of their kind.

export function geoProperties(row: FindingRow): DataQualityGeoProperties {
  const type = osmTypeOfTable(row.table);
  return {
    osm_id: row.osmId,
    type,
    status: row.status as GeometryStatus,
    source: row.source,
    values: row.values,
    changeset: row.changeset,
    timestamp: row.timestamp,
    hashtags: row.hashtags,
    link: osmLink(type, row.osmId),
  };
}

export function geoFeature(row: FindingRow): DataQualityGeoFeature {
  return { type: "Feature", id: row.osmId, geometry: { type: "Point", coordinates: [row.lon, row.lat] }, properties: geoProperties(row) };
}

export function tagRow(row: FindingValueRow): DataQualityTagRow {
  const type = osmTypeOfTable(row.table);
  return {
    osm_id: row.osmId,
    type,
    link: osmLink(type, row.osmId),
    status: row.status as TagStatus,
    tag: row.value,
    source: row.source,
    changeset: row.changeset,
    timestamp: row.timestamp,
  };
}

export function tagStat(row: FindingValueCount): DataQualityTagStat {
  return { tag: row.value, source: row.source, status: row.status as TagStatus, count: row.count };
}
