/**
 * The feature store contract (src/server/store/store.ts) as tests, run against every store: what
 * the routes, the exports, the reports and `basemodel check` rely on, whichever store answers.
 *
 * Every store holds the same data, made by the same steps through its own loader (loadContractData):
 * Monaco imported, the mapathon's first change file applied with its changesets (five buildings,
 * four of them with findings: fixtures/updates/README.md), every feature checked with the default
 * rules. The answers expected are worked out here from the store's own
 * features, never from another store's answers: a third store is tested by passing it the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEATURE_TABLES, type ChangesetFilter, type FeatureTable, type FindingRow, type FindingValueRow, type OsmFeature } from "../../../../src/model/features.js";
import { bboxesIntersect, geometryBBox, type BBox, type Geometry } from "../../../../src/model/geojson.js";
import { areaOf, isTagGroup, type AreaFilter, type GeometryKind, type TagFilter } from "../../../../src/model/query.js";
import { importOsm } from "../../../../src/server/fill/import.js";
import { checkWholeStore, updateStore } from "../../../../src/server/fill/update-store.js";
import { EVERYWHERE } from "../../../../src/server/query/everywhere.js";
import { storeFactory } from "../../../../src/server/store/open.js";
import type { CandidateOptions, CheckableFeatureStore, FindingFilter, Page } from "../../../../src/server/store/store.js";
import { updateFixture } from "../../fill/helpers.js";
import { MONACO } from "../../osm/helpers.js";
import { plainFeature } from "../helpers.js";
import { tileBBox } from "../../../../src/server/geometry/tiles.js";
import { featureId, layersAtZoom, NAME_FIELD, STATUS_OK, TILE_BUFFER, TILE_EXTENT, TILE_LAYER_NAMES } from "../../../../src/model/tile-layers.js";
import { KIND_TABLES } from "../../../../src/model/query.js";
import { osmTypeOfTable } from "../../../../src/model/features.js";
import { decodeTile, tileAt, type DecodedTile } from "../../../support/vector-tiles.js";

/** Fills the store at `location` with the contract's data through the store's own loader, and opens it. */
async function loadContractData(location: string): Promise<CheckableFeatureStore> {
  await importOsm(MONACO, location);
  await updateStore(location, updateFixture("monaco-mapathon-1.osc"), { changesets: updateFixture("monaco-mapathon-changesets.osm") });
  await checkWholeStore(location);
  return storeFactory(location).open(location);
}

/*
 * The area: an L over the centre of Monaco, its notch inside its bounding box but outside it.
 * Its edges lie off OSM's grid of 1e-7 degrees, so that no node lies on them.
 */
const [A, B, C, D] = [7.41861234, 43.73021234, 7.43161234, 43.73921234];
const [MX, MY] = [7.42512345, 43.73472345];
const L_SHAPE: Extract<Geometry, { type: "Polygon" }> = { type: "Polygon", coordinates: [[[A, B], [C, B], [C, MY], [MX, MY], [MX, D], [A, D], [A, B]]] };
/** The two rectangles the L is made of, and the notch beside them. */
const LOWER: BBox = { minX: A, minY: B, maxX: C, maxY: MY };
const UPPER: BBox = { minX: A, minY: MY, maxX: MX, maxY: D };
const NOTCH: BBox = { minX: MX, minY: MY, maxX: C, maxY: D };
const OUTER: BBox = { minX: A, minY: B, maxX: C, maxY: D };

const strictlyInside = (box: BBox, outer: BBox): boolean => box.minX > outer.minX && box.maxX < outer.maxX && box.minY > outer.minY && box.maxY < outer.maxY;
const inside = (box: BBox, outer: BBox): boolean => box.minX >= outer.minX && box.maxX <= outer.maxX && box.minY >= outer.minY && box.maxY <= outer.maxY;
const pointBox = (lon: number, lat: number): BBox => ({ minX: lon, minY: lat, maxX: lon, maxY: lat });
/** Exact for a point: none lies on the L's edges. */
const pointInL = (lon: number, lat: number): boolean => [LOWER, UPPER].some((part) => strictlyInside(pointBox(lon, lat), part));
const grown = ({ minX, minY, maxX, maxY }: BBox, margin: number): BBox => ({ minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin });
/** What a store's index may add to a box: its boxes are rounded outward to 32-bit floats. */
const INDEX_MARGIN = 1e-5;

const KINDS: Record<GeometryKind, ReadonlyArray<Geometry["type"]>> = { point: ["Point"], line: ["LineString", "MultiLineString"], polygon: ["Polygon", "MultiPolygon"] };

/** What TagFilter promises: a key with any of its values (any value when none), joined by and/or, groups within groups. */
function matchesTags(tags: Record<string, string>, filter: TagFilter): boolean {
  if (filter.conditions.length === 0) return true;
  const holds = (condition: TagFilter["conditions"][number]): boolean =>
    isTagGroup(condition) ? matchesTags(tags, condition) : Object.hasOwn(tags, condition.key) && (condition.values.length === 0 || condition.values.includes(tags[condition.key]!));
  return filter.join === "and" ? filter.conditions.every(holds) : filter.conditions.some(holds);
}

const withoutHash = (hashtag: string): string => hashtag.replace(/^#/, "").toLowerCase();
const inRange = (time: string | null, from: string | undefined, to: string | undefined): boolean =>
  (from === undefined || (time !== null && time >= from)) && (to === undefined || (time !== null && time <= to));

/** What ChangesetFilter promises, from the feature's annotations (its changeset as the store has it). */
function matchesChangesets(feature: OsmFeature, filter: ChangesetFilter): boolean {
  const { hashtags, createdAt, closedAt } = feature.annotations!;
  if (filter.hashtag !== undefined && !hashtags.some((hashtag) => withoutHash(hashtag) === withoutHash(filter.hashtag!))) return false;
  return inRange(createdAt, filter.createdFrom, filter.createdTo) && inRange(closedAt, filter.closedFrom, filter.closedTo);
}

/** "newest": timestamp descending, features without one last, then osm_id descending. */
const newestFirst = (a: OsmFeature, b: OsmFeature): number =>
  a.timestamp === b.timestamp ? b.osmId - a.osmId : a.timestamp === null ? 1 : b.timestamp === null ? -1 : a.timestamp < b.timestamp ? 1 : -1;

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The reports' order: timestamp descending (none last), then osm_id, table, status and source ascending. */
const findingOrder = (a: FindingRow, b: FindingRow): number =>
  (a.timestamp === b.timestamp ? 0 : a.timestamp === null ? 1 : b.timestamp === null ? -1 : byCodeUnit(b.timestamp, a.timestamp)) ||
  a.osmId - b.osmId ||
  byCodeUnit(a.table, b.table) ||
  byCodeUnit(a.status, b.status) ||
  byCodeUnit(a.source, b.source);

const ALL: Page = { offset: 0, limit: 1_000_000 };

async function collect(stream: AsyncIterable<OsmFeature>, limit = Infinity): Promise<OsmFeature[]> {
  const features: OsmFeature[] = [];
  if (limit === 0) return features;
  for await (const feature of stream) if (features.push(feature) === limit) break;
  return features;
}

const idsOf = (features: readonly OsmFeature[]): number[] => features.map((feature) => feature.osmId);
const key = (table: FeatureTable, osmId: number): string => `${table}/${osmId}`;

/** Tag filters of every shape, and text that means something in SQL or JSON (which must mean nothing here). */
const tags = (join: "and" | "or", ...conditions: Array<[string, ...string[]]>): TagFilter => ({ join, conditions: conditions.map(([key, ...values]) => ({ key, values })) });
const TAG_FILTERS: TagFilter[] = [
  tags("or", ["building"]),
  tags("and", ["building"], ["building:levels"]),
  tags("or", ["amenity", "cafe", "restaurant"], ["shop"]),
  tags("and", ["highway", "residential", "service"], ["name"]),
  { join: "and", conditions: [tags("or", ["highway"]), tags("or", ["name"], ["ref"])] },
  { join: "or", conditions: [] },
  ...["building'; DROP TABLE nodes; --", '" OR 1=1 --', "%", "?|", "$1", "\\"].map((text) => tags("or", [text], ["building", text])),
];

/**
 * `place` gives a fresh location of the store under test (a file path, a database URL), where
 * the contract loads its data; undefined skips the suite (the store's service is not there).
 */
export function describeStoreContract(name: string, place: (() => Promise<string>) | undefined): void {
  describe.skipIf(place === undefined)(`the feature store contract: ${name}`, { timeout: 300_000 }, () => {
    let store: CheckableFeatureStore;
    /** The area the contract queries by: plain data, as every store receives it. */
    const area: AreaFilter = areaOf(L_SHAPE);
    /** Every feature of the store, annotated, by table, in osm_id order. */
    const features = {} as Record<FeatureTable, OsmFeature[]>;
    const byKey = new Map<string, OsmFeature>();
    /** Every data quality status the store holds. */
    let statuses: string[];

    beforeAll(async () => {
      store = await loadContractData(await place!());
      for (const table of FEATURE_TABLES) {
        features[table] = await collect(store.candidates(table, EVERYWHERE, { annotated: true }));
        for (const feature of features[table]) byKey.set(key(table, feature.osmId), feature);
      }
      statuses = [...new Set(FEATURE_TABLES.flatMap((table) => features[table].flatMap((feature) => feature.annotations!.statuses)))].sort();
    }, 600_000);
    afterAll(async () => {
      await store?.close();
    });

    /** The features of `table` that candidates(table, area) yields (intersects), with their feature objects. */
    const inArea = async (table: FeatureTable, options: CandidateOptions = {}) => collect(store.candidates(table, area, options));

    it("holds what every loader makes of the data: the features of each table, in osm_id order, and the replication time", async () => {
      expect(Object.fromEntries(FEATURE_TABLES.map((table) => [table, features[table].length]))).toEqual({ nodes: 3654, ways_line: 3477, ways_poly: 2167, relations: 228 });
      for (const table of FEATURE_TABLES) {
        const ids = idsOf(features[table]);
        expect(ids.every((id, index) => index === 0 || id > ids[index - 1]!), table).toBe(true);
      }
      const meta = await store.readMeta();
      expect(meta?.replicationTimestamp).toBe("2025-01-10T11:40:00Z");
      expect(typeof meta?.statistics).toBe("object");
      expect(statuses).toEqual(expect.arrayContaining(["badgeom", "badvalue", "incomplete"]));
    });

    it("featuresWithId: the features of every table that has the id, in table order; none for an id it lacks", async () => {
      const tablesOf = new Map<number, FeatureTable[]>();
      for (const table of FEATURE_TABLES) for (const { osmId } of features[table]) tablesOf.set(osmId, [...(tablesOf.get(osmId) ?? []), table]);
      const shared = [...tablesOf].filter(([, tables]) => tables.length > 1).map(([osmId]) => osmId);
      const ids = [...FEATURE_TABLES.flatMap((table) => [features[table][0]!.osmId, features[table].at(-1)!.osmId]), ...shared.slice(0, 5)];
      for (const osmId of ids) {
        const found = await store.featuresWithId(osmId);
        expect(found.map(({ table, feature }) => ({ table, feature: plainFeature(feature) })), String(osmId)).toEqual(
          tablesOf.get(osmId)!.map((table) => ({ table, feature: { ...plainFeature(byKey.get(key(table, osmId))!), annotations: undefined } })),
        );
      }
      expect(await store.featuresWithId(-1)).toEqual([]);
    });

    it("queryBBox: the rows whose bounding box meets the box, by osm_id", async () => {
      for (const table of FEATURE_TABLES) {
        const answer = idsOf(await store.queryBBox(table, OUTER));
        expect([...answer].sort((a, b) => a - b), table).toEqual(answer);
        const meeting = (box: BBox) => idsOf(features[table].filter((feature) => bboxesIntersect(geometryBBox(feature.geometry), box)));
        expect(answer, table).toEqual(expect.arrayContaining(meeting(OUTER)));
        expect(meeting(grown(OUTER, INDEX_MARGIN)), table).toEqual(expect.arrayContaining(answer));
        expect(answer.length, table).toBeGreaterThan(0);
      }
    });

    it("candidates in an area: the exact geometry meets it (intersects) or lies in it (within), not only its bounding box", async () => {
      let inNotch = 0;
      let crossing = 0;
      for (const table of FEATURE_TABLES) {
        const meets = new Set(idsOf(await inArea(table)));
        const within = new Set(idsOf(await inArea(table, { relation: "within" })));
        for (const feature of features[table]) {
          const box = geometryBBox(feature.geometry);
          const what = `${table}/${feature.osmId}`;
          if (feature.geometry.type === "Point") {
            const [lon, lat] = feature.geometry.coordinates;
            expect(meets.has(feature.osmId), what).toBe(pointInL(lon, lat));
            expect(within.has(feature.osmId), what).toBe(pointInL(lon, lat));
            continue;
          }
          if (strictlyInside(box, LOWER) || strictlyInside(box, UPPER)) {
            expect(meets.has(feature.osmId), what).toBe(true);
            expect(within.has(feature.osmId), what).toBe(true);
          }
          if (strictlyInside(box, NOTCH) || !bboxesIntersect(box, OUTER)) expect(meets.has(feature.osmId), what).toBe(false);
          if (within.has(feature.osmId)) {
            expect(meets.has(feature.osmId), what).toBe(true);
            expect(inside(box, OUTER), what).toBe(true);
          }
          if (strictlyInside(box, NOTCH)) inNotch++;
          if (meets.has(feature.osmId) && !within.has(feature.osmId)) crossing++;
        }
      }
      // The area tells the exact test from the bounding box's, and within from intersects.
      expect(inNotch).toBeGreaterThan(0);
      expect(crossing).toBeGreaterThan(0);
    });

    it("candidates of one geometry kind", async () => {
      for (const table of FEATURE_TABLES) {
        const all = await inArea(table);
        for (const kind of ["point", "line", "polygon"] as const) {
          expect(idsOf(await inArea(table, { geometry: kind })), `${table} ${kind}`).toEqual(idsOf(all.filter((feature) => KINDS[kind].includes(feature.geometry.type))));
        }
      }
    });

    it("candidates by tags: keys, values, and and/or groups within groups; text that means something to SQL is plain text", async () => {
      let matched = 0;
      for (const table of FEATURE_TABLES) {
        const all = await inArea(table);
        for (const filter of TAG_FILTERS) {
          const expected = idsOf(all.filter((feature) => matchesTags(feature.tags, filter)));
          expect(idsOf(await inArea(table, { tags: filter })), `${table} ${JSON.stringify(filter)}`).toEqual(expected);
          matched += expected.length;
        }
      }
      expect(matched).toBeGreaterThan(0);
    });

    it("candidates by changeset: a hashtag (any case, with or without #), and the changeset's creation and closing times", async () => {
      // With how many features match: the mapathon's five buildings, or none (bounds are inclusive).
      const filters: Array<[ChangesetFilter, number]> = [
        [{ hashtag: "#HOTOSM-project-123" }, 5],
        [{ hashtag: "mapathon-monaco" }, 5],
        [{ createdFrom: "2025-01-10T10:02:11Z", createdTo: "2025-01-10T10:05:00Z" }, 5],
        [{ createdFrom: "2025-01-10T10:02:12Z" }, 0],
        [{ closedTo: "2025-01-10T10:15:30Z" }, 5],
        [{ hashtag: "hotosm-project-123", closedFrom: "2025-01-10T10:15:31Z" }, 0],
        [{ hashtag: "nobody-uses-this" }, 0],
      ];
      for (const [filter, count] of filters) {
        let matched = 0;
        for (const table of FEATURE_TABLES) {
          const expected = idsOf(features[table].filter((feature) => matchesChangesets(feature, filter)));
          expect(idsOf(await collect(store.candidates(table, EVERYWHERE, { changesets: filter }))), `${table} ${JSON.stringify(filter)}`).toEqual(expected);
          matched += expected.length;
        }
        expect(matched, JSON.stringify(filter)).toBe(count);
      }
    });

    it("candidates by data quality status", async () => {
      for (const status of [...statuses, "no-such-status"]) {
        for (const table of FEATURE_TABLES) {
          const expected = idsOf(features[table].filter((feature) => feature.annotations!.statuses.includes(status)));
          expect(idsOf(await collect(store.candidates(table, EVERYWHERE, { status }))), `${table} ${status}`).toEqual(expected);
        }
      }
    });

    it("annotations only when asked: statuses, and the changeset's hashtags, editor and times", async () => {
      for (const table of FEATURE_TABLES) {
        expect((await inArea(table)).every((feature) => feature.annotations === undefined), table).toBe(true);
        for (const { annotations } of features[table]) {
          expect(Object.keys(annotations!).sort()).toEqual(["closedAt", "createdAt", "editor", "hashtags", "statuses"]);
          expect([Array.isArray(annotations!.statuses), Array.isArray(annotations!.hashtags)]).toEqual([true, true]);
          // Without the changeset, nothing of it.
          if (annotations!.createdAt === null) expect(annotations).toMatchObject({ editor: null, hashtags: [], closedAt: null });
        }
      }
      // The mapathon's five buildings, with their changeset as fixtures/updates/monaco-mapathon-changesets.osm has it.
      const edited = FEATURE_TABLES.flatMap((table) => features[table]).filter((feature) => feature.annotations!.createdAt !== null);
      expect(edited.map(({ osmId, annotations }) => ({ osmId, annotations }))).toEqual(
        [1200000001, 1200000002, 1200000003, 1200000004, 1200000005].map((osmId) => ({
          osmId,
          annotations: {
            statuses: byKey.get(key("ways_poly", osmId))!.annotations!.statuses,
            hashtags: ["hotosm-project-123", "Mapathon-Monaco"],
            editor: "iD 2.30.4",
            createdAt: "2025-01-10T10:02:11Z",
            closedAt: "2025-01-10T10:15:30Z",
          },
        })),
      );
      expect(edited.map((feature) => feature.annotations!.statuses)).toEqual([[], ["badgeom"], ["overlapping"], ["overlapping"], ["badvalue"]]);
    });

    it("orders by osm_id or by newest, and a limit gives the first matches of that order", async () => {
      for (const table of FEATURE_TABLES) {
        const byId = await inArea(table, { order: "id" });
        const newest = await inArea(table, { order: "newest" });
        expect(idsOf(byId), table).toEqual(idsOf(byId).sort((a, b) => a - b));
        expect(idsOf(newest), table).toEqual(idsOf([...byId].sort(newestFirst)));
        for (const limit of [1, 10, 250]) {
          for (const [order, all] of [["id", byId], ["newest", newest]] as const) {
            // The caller reads no more than the limit: a store may stop its query there.
            expect(idsOf(await collect(store.candidates(table, area, { order, limit }), limit)), `${table} ${order} ${limit}`).toEqual(idsOf(all.slice(0, limit)));
          }
        }
      }
    });

    it("a page asked for again and again, in other areas (a store may plan it once and keep the plan), is what it was the first time", async () => {
      for (const table of FEATURE_TABLES) {
        const everywhere = features[table].slice(0, 1000);
        const inL = await inArea(table, { annotated: true });
        // PostgreSQL keeps a prepared statement's generic plan after its fifth run: twelve runs pass it.
        for (let run = 0; run < 12; run++) {
          const [where, expected] = run % 2 === 0 ? [area, inL] : [EVERYWHERE, everywhere];
          // The caller reads no more than the limit, as a route does.
          expect(await collect(store.candidates(table, where, { annotated: true, limit: 1000 }), 1000), `${table} run ${run}`).toEqual(expected.slice(0, 1000));
        }
      }
    });

    it("countCandidates: how many rows candidates() reads (calls onRead for), at least its matches", async () => {
      const optionSets: CandidateOptions[] = [{}, { relation: "within" }, { tags: TAG_FILTERS[0] }, { geometry: "polygon" }, { status: "badgeom" }, { changesets: { hashtag: "hotosm-project-123" } }];
      for (const table of FEATURE_TABLES) {
        for (const options of optionSets) {
          let read = 0;
          const matches = (await inArea(table, { ...options, onRead: () => read++ })).length;
          const what = `${table} ${JSON.stringify(options)}`;
          expect(await store.countCandidates(table, area, options), what).toBe(read);
          expect(read, what).toBeGreaterThanOrEqual(matches);
        }
      }
    });

    it("releases a query whose reader stops early", async () => {
      for (const table of FEATURE_TABLES) expect(await collect(store.candidates(table, EVERYWHERE), 5)).toHaveLength(5);
      // As many reads at once as the store may serve, each on what the early stops gave back.
      const counts = await Promise.all(Array.from({ length: 12 }, () => store.countCandidates("nodes", EVERYWHERE)));
      expect(counts).toEqual(counts.map(() => features.nodes.length));
    });

    it("refuses a table that is not a feature table", async () => {
      const table = "nodes; DROP TABLE nodes" as FeatureTable;
      await expect(store.candidates(table, area)[Symbol.asyncIterator]().next()).rejects.toThrow(/Unknown feature table/);
      await expect(store.countCandidates(table, area)).rejects.toThrow(/Unknown feature table/);
      expect(await store.countCandidates("nodes", EVERYWHERE)).toBe(features.nodes.length);
    });

    /** The features of each layer of the tile's zoom whose box meets `box`, by feature id. */
    const layerFeatures = (z: number, box: BBox) =>
      Object.fromEntries(
        layersAtZoom(z).map(({ layer, tags: filter }) => {
          const kinds = layer.geometry.flatMap((kind) => KINDS[kind]);
          const found = new Map<number, { table: FeatureTable; feature: OsmFeature }>();
          for (const table of new Set(layer.geometry.flatMap((kind) => KIND_TABLES[kind]))) {
            for (const feature of features[table]) {
              if (kinds.includes(feature.geometry.type) && matchesTags(feature.tags, filter) && bboxesIntersect(geometryBBox(feature.geometry), box)) {
                found.set(featureId(osmTypeOfTable(table), feature.osmId), { table, feature });
              }
            }
          }
          return [layer.name, { fields: [NAME_FIELD, ...layer.fields], found }];
        }),
      );

    /**
     * The tile holds, per layer of its zoom, features of that layer that meet the tile and its
     * buffer, each with its OSM type and id, its most severe status and its name and layer's tags;
     * with `whole`, every feature that lies inside the tile too (none collapses at that zoom).
     */
    const checkTile = async ([z, x, y]: [number, number, number], whole: boolean): Promise<DecodedTile> => {
      const tile = decodeTile(await store.tile(z, x, y));
      const what = `${z}/${x}/${y}`;
      const near = layerFeatures(z, grown(tileBBox(z, x, y, TILE_BUFFER / TILE_EXTENT), INDEX_MARGIN));
      const inside = layerFeatures(z, tileBBox(z, x, y));
      expect(Object.keys(tile).every((name) => name in near), what).toBe(true);
      for (const [name, { fields, found }] of Object.entries(near)) {
        const held = tile[name] ?? new Map();
        for (const [id, { properties }] of held) {
          const candidate = found.get(id);
          expect(candidate, `${what} ${name} ${id}`).toBeDefined();
          const { table, feature } = candidate!;
          const tags = Object.fromEntries(fields.filter((key) => feature.tags[key] !== undefined).map((key) => [key, feature.tags[key]]));
          expect(properties, `${what} ${name} ${id}`).toEqual({ osm_type: osmTypeOfTable(table), osm_id: feature.osmId, status: feature.annotations!.statuses[0] ?? STATUS_OK, ...tags });
        }
        if (!whole) continue;
        for (const [id, { feature }] of inside[name]!.found) {
          if (strictlyInside(geometryBBox(feature.geometry), tileBBox(z, x, y))) expect(held.has(id), `${what} ${name} ${id}`).toBe(true);
        }
      }
      return tile;
    };

    it("tile: each layer of the zoom, with the features that meet the tile, their OSM type and id, status and tags", async () => {
      const centre = await checkTile(tileAt(7.4251, 43.7347, 15), true);
      expect(Object.keys(centre)).toEqual([...TILE_LAYER_NAMES]);
      for (const name of TILE_LAYER_NAMES) expect(centre[name]!.size, name).toBeGreaterThan(0);
      // The mapathon's five buildings and their findings, where nothing else stands.
      const mapathon = await checkTile(tileAt(7.4401, 43.7396, 16), true);
      const buildings = [1200000001, 1200000002, 1200000003, 1200000004, 1200000005].map((osmId) => mapathon.buildings?.get(featureId("way", osmId))?.properties.status);
      expect(buildings).toEqual(["ok", "badgeom", "overlapping", "overlapping", "badvalue"]);
      // Zoom gates: no buildings nor points of interest at 12, only main roads at 12.
      const far = await checkTile(tileAt(7.4251, 43.7347, 12), false);
      expect(Object.keys(far)).toEqual(["water", "landuse", "roads"]);
      expect(new Set([...far.roads!.values()].map(({ properties }) => properties.highway))).not.toContain("footway");
      await checkTile(tileAt(7.4251, 43.7347, 13), false);
    });

    it("tile: no bytes for a tile that holds nothing, and below every layer's zoom", async () => {
      expect((await store.tile(...tileAt(7.4251, 43.7347, 9))).byteLength).toBe(0);
      expect((await store.tile(14, 0, 0)).byteLength).toBe(0);
      expect((await store.tile(17, ...tileAt(7.4251, 43.7347, 17).slice(1) as [number, number])).byteLength).toBe(0);
    });

    it("extent: where the points are, over Monaco and not the sea toward Corsica; dataVersion: the same until the data changes, then another", async () => {
      // The 1st and 99th percentiles of the points' longitudes and latitudes.
      const points = features.nodes.map((feature) => (feature.geometry as Extract<Geometry, { type: "Point" }>).coordinates);
      const percentiles = (values: number[]) => {
        const sorted = values.sort((a, b) => a - b);
        return [sorted[Math.floor((sorted.length - 1) * 0.01)]!, sorted[Math.ceil((sorted.length - 1) * 0.99)]!];
      };
      const [[minX, maxX], [minY, maxY]] = [percentiles(points.map(([lon]) => lon!)), percentiles(points.map(([, lat]) => lat!))];
      const box = { minX: minX!, minY: minY!, maxX: maxX!, maxY: maxY! };
      const extent = (await store.extent())!;
      expect(inside(box, grown(extent, INDEX_MARGIN)) && inside(extent, grown(box, INDEX_MARGIN))).toBe(true);
      // Monaco: its ferry routes reach 700 km south, its maritime boundary and a buoy 25 km.
      expect(inside(extent, { minX: 7.40, minY: 43.72, maxX: 7.45, maxY: 43.76 }), JSON.stringify(extent)).toBe(true);

      const node = features.nodes.find((feature) => feature.annotations!.statuses.length === 0 && matchesTags(feature.tags, { join: "or", conditions: [{ key: "amenity", values: [] }] }))!;
      const [lon, lat] = (node.geometry as Extract<Geometry, { type: "Point" }>).coordinates;
      const where = tileAt(lon, lat, 16);
      const statusOf = async () => decodeTile(await store.tile(...where)).pois?.get(featureId("node", node.osmId))?.properties.status;
      const setFindings = async (status: string[]) => {
        const findings = await store.findings();
        await findings.setFindings({ table: "nodes", feature: node }, status.map((value) => ({ status: value, values: ["contract=1"], source: "contract" })));
        await findings.commit();
      };
      const before = await store.dataVersion();
      expect(await store.dataVersion()).toBe(before);
      expect(await statusOf()).toBe("ok");
      await setFindings(["badvalue"]);
      const flagged = await store.dataVersion();
      expect(flagged).not.toBe(before);
      expect(await statusOf()).toBe("badvalue");
      await setFindings([]);
      expect(await store.dataVersion()).not.toBe(flagged);
      expect(await statusOf()).toBe("ok");
    });

    /** Every finding, in the reports' order, from the store. */
    const allFindings = async (): Promise<FindingRow[]> => {
      const { rows, hasMore } = await store.qualityFindings({ statuses }, ALL);
      expect(hasMore).toBe(false);
      return rows;
    };

    it("qualityFindings: every finding of the features' statuses, newest first, with its feature's changeset and location", async () => {
      const rows = await allFindings();
      expect(rows).toEqual([...rows].sort(findingOrder));
      const fromFeatures = FEATURE_TABLES.flatMap((table) => features[table].flatMap((feature) => feature.annotations!.statuses.map((status) => `${key(table, feature.osmId)} ${status}`)));
      expect(new Set(rows.map((row) => `${key(row.table, row.osmId)} ${row.status}`))).toEqual(new Set(fromFeatures));
      for (const row of rows) {
        const feature = byKey.get(key(row.table, row.osmId))!;
        expect({ changeset: row.changeset, timestamp: row.timestamp, hashtags: row.hashtags }).toEqual({ changeset: feature.changeset, timestamp: feature.timestamp, hashtags: feature.annotations!.hashtags });
        // The location is the feature's centroid: inside the feature's bounding box.
        expect(inside(pointBox(row.lon, row.lat), grown(geometryBBox(feature.geometry), 1e-7)), key(row.table, row.osmId)).toBe(true);
        expect(row.values.length).toBeGreaterThan(0);
      }
    });

    it("qualityFindings filtered by status, by when the edit was made, by hashtag and by area, page by page", async () => {
      const rows = await allFindings();
      /** When a finding's edit was made: its changeset's closing time when the store has it, else the finding's time. */
      const editedAt = (row: FindingRow): string | null => byKey.get(key(row.table, row.osmId))!.annotations!.closedAt ?? row.timestamp;
      const filters: Array<[FindingFilter, (row: FindingRow) => boolean]> = [
        [{ statuses: ["badgeom"] }, (row) => row.status === "badgeom"],
        [{ statuses: ["badvalue", "incomplete"] }, (row) => row.status === "badvalue" || row.status === "incomplete"],
        [{ statuses, hashtags: ["#HOTOSM-project-123"] }, (row) => row.hashtags.some((hashtag) => withoutHash(hashtag) === "hotosm-project-123")],
        [{ statuses, hashtags: ["nobody-uses-this", "mapathon-monaco"] }, (row) => row.hashtags.some((hashtag) => withoutHash(hashtag) === "mapathon-monaco")],
        [{ statuses, from: "2025-01-10T00:00:00Z" }, (row) => inRange(editedAt(row), "2025-01-10T00:00:00Z", undefined)],
        [{ statuses, from: "2024-06-01T00:00:00Z", to: "2024-12-31T23:59:59Z" }, (row) => inRange(editedAt(row), "2024-06-01T00:00:00Z", "2024-12-31T23:59:59Z")],
        [{ statuses, area }, (row) => pointInL(row.lon, row.lat)],
        [{ statuses: ["badgeom"], area, to: "2024-12-31T23:59:59Z" }, (row) => row.status === "badgeom" && pointInL(row.lon, row.lat) && inRange(editedAt(row), undefined, "2024-12-31T23:59:59Z")],
        [{ statuses: ["no-such-status"] }, () => false],
      ];
      for (const [filter, keeps] of filters) {
        const expected = rows.filter(keeps);
        const what = JSON.stringify({ ...filter, area: filter.area && "L" });
        expect(await store.qualityFindings(filter, ALL), what).toEqual({ rows: expected, hasMore: false });
        if (filter.statuses[0] !== "no-such-status") expect(expected.length, what).toBeGreaterThan(0);
      }
      for (const page of [{ offset: 0, limit: 10 }, { offset: 10, limit: 10 }, { offset: rows.length - 5, limit: 10 }, { offset: rows.length, limit: 10 }]) {
        expect(await store.qualityFindings({ statuses }, page), JSON.stringify(page)).toEqual({ rows: rows.slice(page.offset, page.offset + page.limit), hasMore: page.offset + page.limit < rows.length });
      }
    });

    it("findingValues: one row per value, in the findings' order; findingValueCounts: their counts, most first", async () => {
      for (const filter of [{ statuses }, { statuses: ["badgeom"], area }] as FindingFilter[]) {
        const findings = (await store.qualityFindings(filter, ALL)).rows;
        const values: FindingValueRow[] = findings.flatMap(({ values, ...row }) => values.map((value) => ({ ...row, value })));
        expect(await store.findingValues(filter, ALL)).toEqual({ rows: values, hasMore: false });
        expect(await store.findingValues(filter, { offset: 3, limit: 4 })).toEqual({ rows: values.slice(3, 7), hasMore: values.length > 7 });

        const counted = new Map<string, { value: string; source: string; status: string; count: number }>();
        for (const { value, source, status } of values) {
          const entry = counted.get(JSON.stringify([value, source, status])) ?? { value, source, status, count: 0 };
          entry.count++;
          counted.set(JSON.stringify([value, source, status]), entry);
        }
        const counts = [...counted.values()].sort((a, b) => b.count - a.count || byCodeUnit(a.value, b.value) || byCodeUnit(a.source, b.source) || byCodeUnit(a.status, b.status));
        expect(await store.findingValueCounts(filter, ALL)).toEqual({ rows: counts, hasMore: false });
        expect(await store.findingValueCounts(filter, { offset: 1, limit: 2 })).toEqual({ rows: counts.slice(1, 3), hasMore: counts.length > 3 });
      }
    });

    it("findings(): featuresInBBox finds the features of every table whose box meets the box, restricted by tags", async () => {
      const findings = await store.findings();
      try {
        for (const filter of [undefined, TAG_FILTERS[0], TAG_FILTERS[2]]) {
          const found = (await findings.featuresInBBox(NOTCH, filter)).map(({ table, feature }) => key(table, feature.osmId));
          const meeting = (box: BBox) =>
            FEATURE_TABLES.flatMap((table) =>
              features[table].filter((feature) => bboxesIntersect(geometryBBox(feature.geometry), box) && (filter === undefined || matchesTags(feature.tags, filter))).map((feature) => key(table, feature.osmId)),
            );
          expect(found).toEqual(expect.arrayContaining(meeting(NOTCH)));
          expect(meeting(grown(NOTCH, INDEX_MARGIN))).toEqual(expect.arrayContaining(found));
          expect(new Set(found).size).toBe(found.length);
        }
      } finally {
        await findings.rollback();
      }
    });

    it("findings(): what commits is seen at once; what is rolled back never; a snapshot sees the store as it was when taken", async () => {
      // A node in the area with no finding gets one, and loses it again at the end.
      const node = features.nodes.find((feature) => feature.annotations!.statuses.length === 0 && feature.geometry.type === "Point" && pointInL(...feature.geometry.coordinates))!;
      const found = { table: "nodes" as const, feature: node };
      const flagged = async (reader: Pick<CheckableFeatureStore, "candidates">) => idsOf(await collect(reader.candidates("nodes", area, { status: "badvalue" }))).includes(node.osmId);
      const counted = (reader: Pick<CheckableFeatureStore, "countCandidates">) => reader.countCandidates("nodes", area, { status: "badvalue" });
      const setFindings = async (finish: "commit" | "rollback", status: string[]) => {
        const findings = await store.findings();
        await findings.setFindings(found, status.map((value) => ({ status: value, values: ["contract=1"], source: "contract" })));
        await findings[finish]();
      };
      const before = await counted(store);

      await setFindings("rollback", ["badvalue"]);
      expect(await flagged(store)).toBe(false);

      const snapshot = await store.snapshot();
      try {
        expect(await counted(snapshot)).toBe(before);
        await setFindings("commit", ["badvalue"]);
        expect(await flagged(store)).toBe(true);
        expect(await counted(store)).toBe(before + 1);
        expect(await flagged(snapshot)).toBe(false);
        expect(await counted(snapshot)).toBe(before);
        expect(await snapshot.readMeta()).toEqual(await store.readMeta());
      } finally {
        await snapshot.close();
        await setFindings("commit", []);
      }
      expect(await counted(store)).toBe(before);
    });
  });
}
