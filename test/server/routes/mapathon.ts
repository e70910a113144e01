/**
 * Monaco after a mapathon (fixtures/updates/monaco-mapathon-1.osc and its changesets): five
 * buildings of changeset 160000001, four of them with a data quality status, beside Monaco's
 * own features, which have no changeset metadata.
 */
import { updateStore } from "../../../src/server/fill/update-store.js";
import { monacoStoreCopy } from "../../support/monaco.js";
import { updateFixture } from "../fill/helpers.js";
import { ringOf } from "./helpers.js";

export const SQUARE = 1_200_000_001;
export const UNSQUARED = 1_200_000_002;
export const OVERLAP_A = 1_200_000_003;
export const OVERLAP_B = 1_200_000_004;
export const BAD_VALUE = 1_200_000_005;
export const MAPATHON = [SQUARE, UNSQUARED, OVERLAP_A, OVERLAP_B, BAD_VALUE];
export const MAPATHON_STATUS: Record<number, string | null> = { [SQUARE]: null, [UNSQUARED]: "badgeom", [OVERLAP_A]: "overlapping", [OVERLAP_B]: "overlapping", [BAD_VALUE]: "badvalue" };
/** Created at 10:02:11, its edits at 10:15:00, closed at 10:15:30. */
export const MAPATHON_CHANGESET = { changeset: 160_000_001, hashtags: ["hotosm-project-123", "Mapathon-Monaco"], created_at: "2025-01-10T10:02:11Z", closed_at: "2025-01-10T10:15:30Z" };
/** Its buildings, and a few of Monaco's own features. */
export const MAPATHON_BOX = { minX: 7.4395, minY: 43.7392, maxX: 7.4412, maxY: 43.7402 };
export const MAPATHON_AREA = ringOf(MAPATHON_BOX);

/** A private copy of the Monaco import with the mapathon applied. */
export async function mapathonStorePath(): Promise<string> {
  const db = await monacoStoreCopy();
  await updateStore(db, updateFixture("monaco-mapathon-1.osc"), { changesets: updateFixture("monaco-mapathon-changesets.osm") });
  return db;
}
