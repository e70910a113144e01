/**
 * The feature query API over real HTTP on a Monaco store that change files updated: the
 * mapathon's buildings carry their changeset's hashtags, editor and creation time and the
 * checker's statuses, and the hashtag, date and status filters answer exactly the features
 * they should, alone and with the area, tags and paging.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { QUALITY_STATUSES } from "../../../src/model/statuses.js";
import { updateStore } from "../../../src/server/fill/update-store.js";
import { monacoStoreCopy } from "../../support/monaco.js";
import { updateFixture } from "../fill/helpers.js";
import { MONACO_CENTRE, ringOf, startServer, wireValidator, type RunningServer } from "./helpers.js";

/** The mapathon's buildings (monaco-mapathon-1.osc), all of changeset 160000001. */
const SQUARE = 1_200_000_001;
const UNSQUARED = 1_200_000_002;
const OVERLAP_A = 1_200_000_003;
const OVERLAP_B = 1_200_000_004;
const BAD_VALUE = 1_200_000_005;
const MAPATHON = [SQUARE, UNSQUARED, OVERLAP_A, OVERLAP_B, BAD_VALUE];
const MAPATHON_STATUS: Record<number, string | null> = {
  [SQUARE]: null,
  [UNSQUARED]: "badgeom",
  [OVERLAP_A]: "overlapping",
  [OVERLAP_B]: "overlapping",
  [BAD_VALUE]: "badvalue",
};
const MAPATHON_CHANGESET = { changeset: 160_000_001, hashtags: ["hotosm-project-123", "Mapathon-Monaco"], editor: "iD 2.30.4", created_at: "2025-01-10T10:02:11Z" };
const MAPATHON_AREA = ringOf({ minX: 7.4395, minY: 43.7392, maxX: 7.4412, maxY: 43.7402 });

/**
 * A Monaco building whose corner node the mapathon file moves. The way itself is not in the
 * file: it keeps its version and changeset (none in the Monaco extract), so it has no
 * changeset metadata, but it was rebuilt and checked, and so was its neighbour.
 */
const MOVED_CORNER_BUILDING = 49_209_624;
const MOVED_CORNER_NEIGHBOUR = 49_209_623;

/**
 * One more building, written here: off square and with a bad value (two statuses, the most
 * severe answered), in changeset 160000002 (created 11:39:02, no hashtags), out at sea so that
 * it touches nothing.
 */
const LATE = 1_300_000_001;
const LATE_AREA = ringOf({ minX: 7.4499, minY: 43.7349, maxX: 7.4503, maxY: 43.7352 });
const LATE_CHANGESET = { changeset: 160_000_002, hashtags: [], editor: "JOSM/1.5 (19253 en)", created_at: "2025-01-10T11:39:02Z" };
const LATE_OSC = `<?xml version="1.0" encoding="UTF-8"?>
<osmChange version="0.6">
  <create>
${[
  [1, 7.45, 43.735],
  [2, 7.4501242, 43.735],
  [3, 7.4501615, 43.73509],
  [4, 7.45, 43.73509],
]
  .map(([n, lon, lat]) => `    <node id="1300000000${n}" version="1" changeset="160000002" timestamp="2025-01-10T11:40:05Z" uid="4100001" user="mapathon_amina" lat="${lat}" lon="${lon}"/>`)
  .join("\n")}
    <way id="${LATE}" version="1" changeset="160000002" timestamp="2025-01-10T11:40:05Z" uid="4100001" user="mapathon_amina">
      <nd ref="13000000001"/><nd ref="13000000002"/><nd ref="13000000003"/><nd ref="13000000004"/><nd ref="13000000001"/>
      <tag k="building" v="houes"/>
    </way>
  </create>
</osmChange>
`;

type Properties = { id: number; changeset: number | null; status: string | null; hashtags: string[]; editor: string | null; created_at: string | null };
type RawFeature = { id: number; properties: Properties };
type ListItem = { id: number; status: string | null; hashtags: string[]; created_at: string | null };
type Collection = { features: RawFeature[]; page: number; pageSize: number; hasMore: boolean };

const NO_CHANGESET = { hashtags: [], editor: null, created_at: null };
const sorted = (items: ReadonlyArray<{ id: number }>): number[] => items.map((item) => item.id).sort((a, b) => a - b);
const numbers = (values: number[]): number[] => [...values].sort((a, b) => a - b);

describe("POST /raw/* on Monaco after a mapathon's change file", () => {
  let server: RunningServer;
  const validCollection = wireValidator("RawFeatureCollection");
  const validList = wireValidator("RawList");

  beforeAll(async () => {
    const db = await monacoStoreCopy();
    await updateStore(db, updateFixture("monaco-mapathon-1.osc"), { changesets: updateFixture("monaco-mapathon-changesets.osm") });
    const late = join(dirname(db), "late-building.osc");
    writeFileSync(late, LATE_OSC);
    await updateStore(db, late);
    server = await startServer(db);
  });

  /** A GeoJSON route's 200 answer, valid by the published wire schema. */
  async function collection(route: string, body: object): Promise<Collection> {
    const answer = await server.post(route, { pageSize: 5000, ...body });
    expect(answer.status, answer.text).toBe(200);
    expect(validCollection(answer.body)).toBe(true);
    return answer.body;
  }

  /** A list route's 200 answer, valid by the published wire schema. */
  async function list(route: string, body: object): Promise<ListItem[]> {
    const answer = await server.post(route, { pageSize: 5000, ...body });
    expect(answer.status, answer.text).toBe(200);
    expect(validList(answer.body)).toBe(true);
    return answer.body;
  }

  /** The ids /raw/all and /raw/allList both answer for `body` (they must agree). */
  async function matches(body: object): Promise<number[]> {
    const features = sorted((await collection("/raw/all", body)).features);
    expect(sorted(await list("/raw/allList", body))).toEqual(features);
    return features;
  }

  describe("annotations", () => {
    it("/raw/polygons and /raw/all: the mapathon's buildings carry their status and changeset; features without a known changeset carry none", async () => {
      for (const route of ["/raw/polygons", "/raw/all"]) {
        const { features } = await collection(route, { area: MAPATHON_AREA });
        expect(sorted(features.filter((feature) => MAPATHON.includes(feature.id)))).toEqual(MAPATHON);
        for (const { id, properties } of features) {
          if (MAPATHON.includes(id)) expect(properties, `${route} ${id}`).toMatchObject({ status: MAPATHON_STATUS[id], ...MAPATHON_CHANGESET });
          else expect(properties, `${route} ${id}`).toMatchObject({ changeset: null, status: null, ...NO_CHANGESET });
        }
        // Monaco's own features are there too (its boundary relations): the area filter is not the hashtag filter.
        expect(features.length).toBeGreaterThan(MAPATHON.length);
      }
    });

    it("the list variants carry status, hashtags and created_at the same way", async () => {
      for (const route of ["/raw/polygonsList", "/raw/allList"]) {
        const items = await list(route, { area: MAPATHON_AREA });
        expect(sorted(items.filter((item) => MAPATHON.includes(item.id)))).toEqual(MAPATHON);
        for (const item of items) {
          const { hashtags, created_at } = MAPATHON.includes(item.id) ? MAPATHON_CHANGESET : NO_CHANGESET;
          expect(item, `${route} ${item.id}`).toMatchObject({ status: MAPATHON_STATUS[item.id] ?? null, hashtags, created_at });
        }
      }
    });

    it("a rebuilt Monaco building keeps its (unknown) changeset; a feature with two statuses answers the most severe", async () => {
      const moved = (await collection("/raw/polygons", { area: ringOf(MONACO_CENTRE) })).features.find((feature) => feature.id === MOVED_CORNER_BUILDING);
      expect(moved!.properties).toMatchObject({ changeset: null, status: "badgeom", ...NO_CHANGESET });
      // Monaco's territorial waters are there too: tags keep to the building.
      const [late, ...others] = (await collection("/raw/polygons", { area: LATE_AREA, tags: "building" })).features;
      expect(others).toEqual([]);
      expect(late!.properties).toMatchObject({ id: LATE, status: "badgeom", ...LATE_CHANGESET });
      expect(await list("/raw/polygonsList", { area: LATE_AREA, tags: "building" })).toMatchObject([{ id: LATE, status: "badgeom", hashtags: [], created_at: LATE_CHANGESET.created_at }]);
    });
  });

  describe("hashtag", () => {
    it.each(["hotosm-project-123", "#HOTOSM-PROJECT-123", "Mapathon-Monaco", "#mapathon-monaco"])("%s: the five mapathon buildings, and nothing else", async (hashtag) => {
      expect(await matches({ hashtag })).toEqual(MAPATHON);
    });

    it("matches whole hashtags only; a changeset without hashtags, or none known, never matches", async () => {
      for (const hashtag of ["nope", "hotosm-project-12", "hotosm", "123", "#"]) expect(await matches({ hashtag }), hashtag).toEqual([]);
      for (const route of ["/raw/lines", "/raw/nodes"]) expect((await collection(route, { hashtag: "hotosm-project-123" })).features).toEqual([]);
      for (const route of ["/raw/linesList", "/raw/nodesList"]) expect(await list(route, { hashtag: "hotosm-project-123" })).toEqual([]);
    });
  });

  describe("dateFrom and dateTo: the changeset's created_at, bounds included, no zone read as UTC", () => {
    const LATE_ONLY = [LATE];
    const BOTH = numbers([...MAPATHON, LATE]);
    const cases: Array<[object, number[]]> = [
      [{ dateFrom: "2025-01-10T10:00:00" }, BOTH],
      [{ dateFrom: "2025-01-10T10:00:00Z" }, BOTH],
      [{ dateFrom: "2025-01-10" }, BOTH],
      [{ dateFrom: "2025-01-10T10:02:11" }, BOTH],
      [{ dateFrom: "2025-01-10T10:02:12Z" }, LATE_ONLY],
      [{ dateFrom: "2025-01-10T11:39:02" }, LATE_ONLY],
      [{ dateFrom: "2025-01-10T11:39:03Z" }, []],
      [{ dateFrom: "2025-01-11" }, []],
      [{ dateTo: "2025-01-10T10:02:11Z" }, MAPATHON],
      [{ dateTo: "2025-01-10T10:02:10" }, []],
      // A date alone is the whole day: as an upper bound, its last second.
      [{ dateTo: "2025-01-10" }, BOTH],
      [{ dateTo: "2025-01-09" }, []],
      [{ dateTo: "2025-01-11" }, BOTH],
      [{ dateTo: "2025-01-10T11:39:02" }, BOTH],
      [{ dateFrom: "2025-01-10T10:00:00", dateTo: "2025-01-10T11:00:00Z" }, MAPATHON],
      [{ dateFrom: "2025-01-10T10:02:11Z", dateTo: "2025-01-10T10:02:11" }, MAPATHON],
      [{ dateFrom: "2025-01-10T11:39:02Z", dateTo: "2025-01-10T11:39:02Z" }, LATE_ONLY],
      [{ dateFrom: "2025-01-10", dateTo: "2025-01-11" }, BOTH],
      [{ dateFrom: "2025-01-09", dateTo: "2025-01-10" }, BOTH],
      [{ dateFrom: "2025-01-11", dateTo: "2025-01-11" }, []],
      // An offset is a zone too: 11:02:11+01:00 is 10:02:11 UTC.
      [{ dateFrom: "2025-01-10T11:02:11+01:00", dateTo: "2025-01-10T05:02:11-05:00" }, MAPATHON],
    ];
    it.each(cases)("%j", async (body, expected) => {
      expect(await matches(body)).toEqual(expected);
    });
  });

  describe("status", () => {
    it("in the mapathon area: exactly the buildings with that status", async () => {
      const expected: Record<string, number[]> = { badgeom: [UNSQUARED], overlapping: [OVERLAP_A, OVERLAP_B], duplicate: [], badvalue: [BAD_VALUE], incomplete: [] };
      for (const status of QUALITY_STATUSES) {
        expect(sorted((await collection("/raw/polygons", { area: MAPATHON_AREA, status })).features), status).toEqual(expected[status]);
        expect(sorted(await list("/raw/polygonsList", { area: MAPATHON_AREA, status })), status).toEqual(expected[status]);
      }
    });

    it("everywhere: only checked features have one (the updates' features, and the neighbours they were compared with); any of a feature's statuses matches", async () => {
      expect(await matches({ status: "badgeom" })).toEqual(numbers([MOVED_CORNER_NEIGHBOUR, MOVED_CORNER_BUILDING, UNSQUARED, LATE]));
      expect(await matches({ status: "overlapping" })).toEqual([OVERLAP_A, OVERLAP_B]);
      // The late building answers "badgeom", its most severe status, but has "badvalue" too.
      expect(await matches({ status: "badvalue" })).toEqual([BAD_VALUE, LATE]);
      expect(await matches({ status: "duplicate" })).toEqual([]);
      expect(await matches({ status: "incomplete" })).toEqual([]);
    });
  });

  describe("filters combine with each other, the area and tags (AND), and pages", () => {
    const cases: Array<[string, object, number[]]> = [
      ["hashtag and a tag value", { hashtag: "hotosm-project-123", tags: "building=residential" }, [OVERLAP_A, OVERLAP_B]],
      ["hashtag and tags OR-ed", { hashtag: "hotosm-project-123", tags: "building=house,building=houes" }, [SQUARE, BAD_VALUE]],
      ["hashtag and a tag nobody has", { hashtag: "hotosm-project-123", tags: "amenity" }, []],
      ["hashtag and the mapathon's area", { hashtag: "hotosm-project-123", area: MAPATHON_AREA }, MAPATHON],
      ["hashtag and an area elsewhere", { hashtag: "hotosm-project-123", area: ringOf(MONACO_CENTRE) }, []],
      ["hashtag and a date after it", { hashtag: "hotosm-project-123", dateFrom: "2025-01-10T11:00:00" }, []],
      ["hashtag and status", { hashtag: "Mapathon-Monaco", status: "overlapping" }, [OVERLAP_A, OVERLAP_B]],
      ["status and a tag value", { status: "badvalue", tags: "building=houes" }, [BAD_VALUE, LATE]],
      ["status and hashtag and tag value", { status: "badvalue", hashtag: "hotosm-project-123", tags: "building=houes" }, [BAD_VALUE]],
      ["status and another tag value", { status: "overlapping", tags: "building=house" }, []],
      ["status and a date range", { status: "badgeom", dateTo: "2025-01-10T11:00:00" }, [UNSQUARED]],
      ["status and the area", { status: "badgeom", area: ringOf(MONACO_CENTRE) }, [MOVED_CORNER_NEIGHBOUR, MOVED_CORNER_BUILDING]],
      ["status and an area with none", { status: "badgeom", area: MAPATHON_AREA, tags: "building=house" }, []],
    ];
    it.each(cases)("%s", async (_name, body, expected) => {
      expect(await matches(body)).toEqual(expected);
    });

    it("pages of a filtered query add up to the whole answer; hasMore says when another page exists", async () => {
      const pages: Collection[] = [];
      for (let page = 0; page < 4; page++) pages.push(await collection("/raw/polygons", { hashtag: "hotosm-project-123", page, pageSize: 2 }));
      expect(pages.map(({ features }) => features.length)).toEqual([2, 2, 1, 0]);
      expect(pages.map(({ hasMore }) => hasMore)).toEqual([true, true, false, false]);
      expect(pages.map(({ page, pageSize }) => [page, pageSize])).toEqual([[0, 2], [1, 2], [2, 2], [3, 2]]);
      expect(pages.flatMap(({ features }) => features.map((feature) => feature.id))).toEqual(MAPATHON);

      const whole = await list("/raw/polygonsList", { hashtag: "hotosm-project-123" });
      const listPages: ListItem[][] = [];
      for (let page = 0; page < 3; page++) listPages.push(await list("/raw/polygonsList", { hashtag: "hotosm-project-123", page, pageSize: 2 }));
      expect(listPages.flat()).toEqual(whole);
      // Newest first; the five share a timestamp, so the highest id comes first.
      expect(whole.map((item) => item.id)).toEqual([...MAPATHON].reverse());
    });
  });

  describe("422 with the {detail: [{loc, msg, type}]} shape", () => {
    const DATE_HINT = 'write it as ISO 8601, e.g. "2025-01-10T10:15:00" (read as UTC) or "2025-01-10"';
    const cases: Array<[string, object, { loc: string[]; msg: string; type: string }]> = [
      [
        "a status outside the list",
        { status: "nope" },
        { loc: ["body", "status"], msg: `"status" must be one of ${QUALITY_STATUSES.map((status) => `"${status}"`).join(", ")}, ""; found a string ("nope")`, type: "enum" },
      ],
      [
        "a status in capitals",
        { status: "BADGEOM" },
        {
          loc: ["body", "status"],
          msg: `"status" must be one of ${QUALITY_STATUSES.map((status) => `"${status}"`).join(", ")}, ""; found a string ("BADGEOM") (did you mean "badgeom"?)`,
          type: "enum",
        },
      ],
      ["a dateFrom in words", { dateFrom: "yesterday" }, { loc: ["body", "dateFrom"], msg: `"yesterday" is not a date-time; ${DATE_HINT}`, type: "value_error" }],
      ["a dateFrom that does not exist", { dateFrom: "2025-02-30" }, { loc: ["body", "dateFrom"], msg: `"2025-02-30" is not a date-time; ${DATE_HINT}`, type: "value_error" }],
      ["a dateTo at hour 24", { dateTo: "2025-01-10T24:00:00" }, { loc: ["body", "dateTo"], msg: `"2025-01-10T24:00:00" is not a date-time; ${DATE_HINT}`, type: "value_error" }],
      ["an offset beyond a day", { dateTo: "2025-01-10T10:00:00+24:00" }, { loc: ["body", "dateTo"], msg: `"2025-01-10T10:00:00+24:00" is not a date-time; ${DATE_HINT}`, type: "value_error" }],
      ["a hashtag number", { hashtag: 123 }, { loc: ["body", "hashtag"], msg: '"hashtag" must be a string; found a number (123)', type: "type_error" }],
      ["a hashtag array", { hashtag: ["hotosm-project-123"] }, { loc: ["body", "hashtag"], msg: '"hashtag" must be a string; found an array of 1 item', type: "type_error" }],
    ];
    it.each(cases)("%s", async (_name, body, detail) => {
      for (const route of ["/raw/polygons", "/raw/allList"]) {
        const answer = await server.post(route, body);
        expect(answer.status, route).toBe(422);
        expect(answer.body, route).toEqual({ detail: [detail] });
      }
    });
  });
});
