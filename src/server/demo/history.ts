/**
 * Who edited the demo town, and when: made-up mappers (every name starts with `demo_`) and
 * changesets spread over five years, so that versions, changesets, timestamps and users look
 * like those of a real extract.
 */
import { formatOsmTimestamp } from "../../model/osm.js";
import { geometryBBox } from "../../model/geojson.js";
import type { BBox } from "../../model/geojson.js";
import type { Changeset, OsmFeature } from "../../model/features.js";
import { changesetTags } from "./changeset-tags.js";
import type { ChangesetTags } from "./changeset-tags.js";
import type { Random } from "./random.js";

export interface Mapper {
  uid: number;
  user: string;
}

export interface DemoChangeset extends Mapper, ChangesetTags {
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

export function createChangesets(random: Random, count: number): DemoChangeset[] {
  const times = Array.from({ length: count }, () => FIRST_EDIT + Math.floor(random.next() * (LAST_EDIT - FIRST_EDIT)));
  times.sort((a, b) => a - b);
  const changesets = times.map((createdAt, index) => ({
    ...random.pick(MAPPERS),
    // + index: two changesets on one day still get distinct, increasing ids.
    id: FIRST_CHANGESET_ID + Math.floor((createdAt - FIRST_EDIT) / DAY_MS) * CHANGESETS_PER_DAY + index,
    createdAt,
  }));
  // Drawn after every mapper: editors and hashtags can change without changing who mapped what.
  return changesets.map((changeset) => ({ ...changeset, ...changesetTags(random, changeset.createdAt) }));
}

/** Editors close their changeset right after the last upload. */
const CLOSING_DELAY_MS = 60_000;

/**
 * The changesets as the store keeps them: each closes after the last edit of the features that
 * name it and covers their bounding boxes (null when no feature names it).
 */
export function changesetRecords(changesets: readonly DemoChangeset[], features: readonly OsmFeature[]): Changeset[] {
  return changesets.map(({ id, createdAt, uid, user, editor, hashtags }) => {
    const own = features.filter((feature) => feature.changeset === id);
    const lastUpload = Math.max(createdAt, ...own.map((feature) => Date.parse(feature.timestamp!)));
    const box = own.map((feature) => geometryBBox(feature.geometry)).reduce<BBox | null>((union, next) => (union === null ? next : joinBoxes(union, next)), null);
    const bbox: Changeset["bbox"] = box && [box.minX, box.minY, box.maxX, box.maxY];
    return { id, createdAt: formatOsmTimestamp(createdAt), closedAt: formatOsmTimestamp(lastUpload + CLOSING_DELAY_MS), uid, user, editor, hashtags, bbox };
  });
}

function joinBoxes(a: BBox, b: BBox): BBox {
  return { minX: Math.min(a.minX, b.minX), minY: Math.min(a.minY, b.minY), maxX: Math.max(a.maxX, b.maxX), maxY: Math.max(a.maxY, b.maxY) };
}

/** The metadata of a feature's latest version: mostly first versions, some edited a few times. */
export function lastEdit(random: Random, changesets: readonly DemoChangeset[]): Pick<OsmFeature, "version" | "changeset" | "timestamp" | "uid" | "user"> {
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
