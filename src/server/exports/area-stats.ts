/**
 * What includeStats adds to an export: the buildings and roads of its area, counted from the
 * store's own OpenStreetMap data. raw-data-api asked a service that also knows population and
 * AI-mapped estimates; this server has neither, so those members are null.
 */
import type { AreaStats } from "../api/snapshot.js";
import { lengthKm } from "../geometry/length.js";
import { tableMatches } from "../query/find.js";
import { KIND_TABLES, type AreaFilter, type GeometryKind } from "../../model/query.js";
import type { Geometry, Position } from "../../model/geojson.js";
import type { FeatureSnapshot } from "../store/store.js";
import type { OsmFeature } from "../../model/features.js";

/** "Recent" edits: in this many months before the data's last update. */
const RECENT_MONTHS = 6;

interface Tally {
  count: number;
  km: number;
  recentCount: number;
  recentKm: number;
}

/** Who edited the features counted, and when: buildings and roads together, as raw-data-api reports them. */
interface Edits {
  users: Set<number | string>;
  times: number;
  sum: number;
  last: number;
}

export async function areaStats(data: FeatureSnapshot, area: AreaFilter): Promise<AreaStats> {
  const lastUpdated = (await data.readMeta())?.replicationTimestamp ?? null;
  const since = new Date(lastUpdated === null ? Date.now() : Date.parse(lastUpdated));
  since.setUTCMonth(since.getUTCMonth() - RECENT_MONTHS);
  const edits: Edits = { users: new Set(), times: 0, sum: 0, last: -Infinity };
  const buildings = await tally(data, area, "polygon", "building", since.getTime(), edits);
  const roads = await tally(data, area, "line", "highway", since.getTime(), edits);
  const average = edits.times === 0 ? null : utcTime(edits.sum / edits.times);
  const last = edits.times === 0 ? null : utcTime(edits.last);
  const edited = average === null ? "" : ` On average its buildings and roads were last edited on ${average.slice(0, 10)} (the latest on ${last!.slice(0, 10)})`;
  const recent = (share: number, what: string) =>
    `${edited}, and ${Math.round(share * 100)}% of ${what} added or updated in the ${RECENT_MONTHS} months before the data's last update.`;
  return {
    summary: {
      buildings: `OpenStreetMap contains ${buildings.count.toLocaleString("en-US")} buildings in this region.${buildings.count === 0 ? "" : recent(buildings.recentCount / buildings.count, "them were")}`,
      roads: `OpenStreetMap contains ${roads.km.toFixed(1)} km of roads in this region.${roads.km === 0 ? "" : recent(roads.recentKm / roads.km, "that length was")}`,
    },
    raw: {
      population: null,
      populatedAreaKm2: null,
      averageEditTime: average,
      lastEditTime: last,
      osmUsersCount: edits.users.size,
      osmBuildingCompletenessPercentage: null,
      osmRoadsCompletenessPercentage: null,
      osmBuildingsCount: buildings.count,
      osmHighwayLengthKm: metres(roads.km),
      aiBuildingsCountEstimation: null,
      aiRoadCountEstimationKm: null,
      buildingCount6Months: buildings.recentCount,
      highwayLength6MonthsKm: metres(roads.recentKm),
    },
    meta: {
      lastUpdated: lastUpdated === null ? null : utcTime(Date.parse(lastUpdated)),
      description:
        "Counted from this server's OpenStreetMap data: the features with a building tag and the lines with a highway tag that intersect the area, " +
        `whole; recent = edited in the ${RECENT_MONTHS} months before the data's last update. This server has no population or AI-mapped estimates: those are null.`,
    },
  };
}

async function tally(data: FeatureSnapshot, area: AreaFilter, kind: GeometryKind, key: string, since: number, edits: Edits): Promise<Tally> {
  const found: Tally = { count: 0, km: 0, recentCount: 0, recentKm: 0 };
  const tags = { conditions: [{ key, values: [] }], join: "or" as const };
  for (const table of KIND_TABLES[kind]) {
    for await (const { feature } of tableMatches(data, { area, tags, geometry: kind }, table)) {
      const km = kind === "line" ? lengthKm(linesOf(feature.geometry)) : 0;
      const time = feature.timestamp === null ? NaN : Date.parse(feature.timestamp);
      found.count++;
      found.km += km;
      if (time >= since) {
        found.recentCount++;
        found.recentKm += km;
      }
      noteEdit(edits, feature, time);
    }
  }
  return found;
}

function noteEdit(edits: Edits, feature: OsmFeature, time: number): void {
  const user = feature.uid ?? feature.user;
  if (user !== null) edits.users.add(user);
  if (Number.isNaN(time)) return;
  edits.times++;
  edits.sum += time;
  edits.last = Math.max(edits.last, time);
}

function linesOf(geometry: Geometry): Position[][] {
  return geometry.type === "LineString" ? [geometry.coordinates] : geometry.type === "MultiLineString" ? geometry.coordinates : [];
}

/** km to the metre. */
function metres(km: number): number {
  return Math.round(km * 1000) / 1000;
}

/** "YYYY-MM-DD HH:MM:SS", UTC, as raw-data-api writes these times. */
function utcTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}
