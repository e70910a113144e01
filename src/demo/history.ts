/**
 * Who edited the demo town, and when: made-up mappers (every name starts with `demo_`) and
 * changesets spread over five years, so that versions, changesets, timestamps and users look
 * like those of a real extract.
 */
import { formatOsmTimestamp } from "../osm/types.js";
import type { OsmFeature } from "../store/store.js";
import type { Random } from "./random.js";

export interface Mapper {
  uid: number;
  user: string;
}

export interface Changeset extends Mapper {
  id: number;
  /** Epoch milliseconds, UTC. */
  createdAt: number;
}

const MAPPERS: readonly Mapper[] = [
  { uid: 7_310_021, user: "demo_amina" },
  { uid: 8_904_377, user: "demo_kofi" },
  { uid: 9_127_655, user: "demo_fatou" },
  { uid: 10_486_203, user: "demo_yusuf" },
  { uid: 11_930_518, user: "demo_lea" },
  { uid: 12_644_090, user: "demo_surveyor" },
  { uid: 14_002_781, user: "demo_validator" },
  { uid: 16_358_442, user: "demo_tm_team" },
];

const DAY_MS = 86_400_000;
const FIRST_EDIT = Date.UTC(2020, 0, 6);
const LAST_EDIT = Date.UTC(2024, 11, 20);
/** After every edit: what the demo store reports as its last update. */
export const DEMO_REPLICATION_TIMESTAMP = "2025-01-01T00:00:00Z";

/** Changeset ids grow with time, about as fast as OSM's did (78 million in early 2020). */
const FIRST_CHANGESET_ID = 78_000_000;
const CHANGESETS_PER_DAY = 50_000;

export function createChangesets(random: Random, count: number): Changeset[] {
  const times = Array.from({ length: count }, () => FIRST_EDIT + Math.floor(random.next() * (LAST_EDIT - FIRST_EDIT)));
  times.sort((a, b) => a - b);
  return times.map((createdAt, index) => ({
    ...random.pick(MAPPERS),
    // + index: two changesets on one day still get distinct, increasing ids.
    id: FIRST_CHANGESET_ID + Math.floor((createdAt - FIRST_EDIT) / DAY_MS) * CHANGESETS_PER_DAY + index,
    createdAt,
  }));
}

/** The metadata of a feature's latest version: mostly first versions, some edited a few times. */
export function lastEdit(random: Random, changesets: readonly Changeset[]): Pick<OsmFeature, "version" | "changeset" | "timestamp" | "uid" | "user"> {
  const changeset = random.pick(changesets);
  return {
    version: random.weighted([
      [1, 60],
      [2, 25],
      [3, 10],
      [4, 4],
      [5, 1],
    ]),
    changeset: changeset.id,
    // Within the hour the changeset was open.
    timestamp: formatOsmTimestamp(changeset.createdAt + random.int(0, 3599) * 1000),
    uid: changeset.uid,
    user: changeset.user,
  };
}
