import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_PAGE_REASON } from "../../../src/server/api/limits.js";
import { updateStore } from "../../../src/server/fill/update-store.js";
import { monacoStoreCopy } from "../../support/monaco.js";
import { updateFixture } from "../fill/helpers.js";
import { MONACO_CENTRE, ringOf, startServer, wireValidator, type RunningServer } from "./helpers.js";

const CHANGESETS = updateFixture("monaco-mapathon-changesets.osm");
const FIRST = updateFixture("monaco-mapathon-1.osc");
const SECOND = updateFixture("monaco-mapathon-2.osc");

const REPORTS = ["dataQualityGeo", "dataQualityTags", "dataQualityTag", "dataQualityTagStats"] as const;
const ROUTES = REPORTS.flatMap((report) => [`/report/${report}`, `/report/${report}/csv`]);
const GEO_COLUMNS = ["osm_id", "type", "status", "source", "values", "changeset", "timestamp", "hashtags", "link", "lon", "lat"];
const TAG_COLUMNS = ["osm_id", "type", "link", "status", "tag", "source", "changeset", "timestamp"];
const STAT_COLUMNS = ["tag", "source", "status", "count"];

/** Every finding in the store once the mapathon's first file is applied; Monaco's own data has none before. */
const SINCE_2019 = "2019-01-01T00:00:00";
const SINCE_MAPATHON = "2025-01-01T00:00:00";
const MAPATHON = { changeset: 160_000_001, timestamp: "2025-01-10T10:15:00Z", hashtags: ["hotosm-project-123", "Mapathon-Monaco"] };

/** Coordinates are centroids on OSM's 1e-7 degree grid: compared exactly. */
function geoFeature(osmId: number, status: string, values: string[], [lon, lat]: [number, number], edit: { changeset: number | null; timestamp: string; hashtags: string[] }) {
  return {
    type: "Feature",
    id: osmId,
    geometry: { type: "Point", coordinates: [lon, lat] },
    properties: { osm_id: osmId, type: "way", status, source: "building", values, ...edit, link: `https://www.openstreetmap.org/way/${osmId}` },
  };
}

// The mapathon's buildings (fixtures/updates): one off square, two overlapping each other.
const UNSQUARED = geoFeature(1_200_000_002, "badgeom", ["not square: 63.4° corner at 7.440373 43.7395"], [7.4404787, 43.7395449], MAPATHON);
const OVERLAP_A = geoFeature(1_200_000_003, "overlapping", ["way/1200000004"], [7.4400871, 43.7398144], MAPATHON);
const OVERLAP_B = geoFeature(1_200_000_004, "overlapping", ["way/1200000003"], [7.4401865, 43.7398504], MAPATHON);
// Monaco's building 49209624, rebuilt because the first file moves one of its corners, and its
// neighbour 49209623, checked again beside it: both off square. The import has no changesets
// (null), so their time is the building version's timestamp.
const MONACO_NEIGHBOUR = geoFeature(49_209_623, "badgeom", ["not square: 132.4° corner at 7.4218742 43.730449"], [7.4219534, 43.7305793], {
  changeset: null,
  timestamp: "2019-05-07T21:35:22Z",
  hashtags: [],
});
const MONACO_MOVED_CORNER = geoFeature(49_209_624, "badgeom", ["not square: 131.4° corner at 7.4220042 43.7307836"], [7.4220938, 43.7307752], {
  changeset: null,
  timestamp: "2019-02-04T08:34:38Z",
  hashtags: [],
});
const BAD_VALUE = {
  osm_id: 1_200_000_005,
  type: "way",
  link: "https://www.openstreetmap.org/way/1200000005",
  status: "badvalue",
  tag: "building=houes",
  source: "building",
  changeset: MAPATHON.changeset,
  timestamp: MAPATHON.timestamp,
};

/** Around the mapathon's buildings; its bounding box holds all of them, the triangle only some. */
const MAPATHON_BOX = "7.4399 43.7394, 7.4410 43.7394, 7.4410 43.7400, 7.4399 43.7400, 7.4399 43.7394";
const MAPATHON_TRIANGLE = "7.4399 43.7394, 7.4410 43.7394, 7.4399 43.7400, 7.4399 43.7394";

const validGeo = wireValidator("DataQualityGeoCollection");
const validTags = wireValidator("DataQualityTagList");
const validStats = wireValidator("DataQualityTagStats");
const validProblem = wireValidator("HTTPValidationError");

function csvCell(value: unknown): string {
  return value === null ? "" : Array.isArray(value) ? value.join(";") : String(value);
}

describe("POST /report/* on the Monaco import with a mapathon applied", () => {
  let db: string;
  let server: RunningServer;

  beforeAll(async () => {
    db = await monacoStoreCopy();
    await updateStore(db, FIRST, { changesets: CHANGESETS });
    server = await startServer(db);
  });

  const geo = async (body: object) => {
    const { status, body: answer } = await server.post("/report/dataQualityGeo", body);
    expect(status, JSON.stringify(answer)).toBe(200);
    expect(validGeo(answer)).toBe(true);
    return answer;
  };
  const tags = async (body: object, path = "/report/dataQualityTags") => {
    const { status, body: answer } = await server.post(path, body);
    expect(status, JSON.stringify(answer)).toBe(200);
    expect(validTags(answer)).toBe(true);
    return answer;
  };
  const stats = async (body: object) => {
    const { status, body: answer } = await server.post("/report/dataQualityTagStats", body);
    expect(status, JSON.stringify(answer)).toBe(200);
    expect(validStats(answer)).toBe(true);
    return answer;
  };
  const ids = async (body: object) => (await geo(body)).features.map((feature: { id: number }) => feature.id);
  /** The CSV answer, parsed by a real CSV reader that accepts only CRLF record ends. */
  const csv = async (path: string, body: object) => {
    const response = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
    return { text, records: parse(text, { record_delimiter: "\r\n" }) as string[][] };
  };

  it("dataQualityGeo: every geometry problem since a date, newest first, as points with their edit's metadata", async () => {
    expect(await geo({ fromDate: SINCE_2019 })).toEqual({
      type: "FeatureCollection",
      features: [UNSQUARED, OVERLAP_A, OVERLAP_B, MONACO_NEIGHBOUR, MONACO_MOVED_CORNER],
      page: 0,
      pageSize: 1000,
      hasMore: false,
    });
    expect(await geo({ fromDate: SINCE_MAPATHON })).toEqual({ type: "FeatureCollection", features: [UNSQUARED, OVERLAP_A, OVERLAP_B], page: 0, pageSize: 1000, hasMore: false });
  });

  it("dataQualityTags (and its alias dataQualityTag): one row per offending tag", async () => {
    expect(await tags({ fromDate: SINCE_2019 })).toEqual([BAD_VALUE]);
    expect(await tags({ fromDate: SINCE_2019 }, "/report/dataQualityTag")).toEqual([BAD_VALUE]);
  });

  it("dataQualityTagStats: counts by tag, source and status", async () => {
    expect(await stats({ fromDate: SINCE_2019 })).toEqual([{ tag: "building=houes", source: "building", status: "badvalue", count: 1 }]);
  });

  it("hashtags: a string or a list (any of them), case-insensitive, a leading # ignored; [] filters nothing", async () => {
    const mapathon = [UNSQUARED.id, OVERLAP_A.id, OVERLAP_B.id];
    for (const hashtags of ["hotosm-project-123", "#HOTOSM-project-123", ["nope", "mapathon-monaco"], ["#Mapathon-Monaco"]]) {
      expect(await ids({ fromDate: SINCE_2019, hashtags }), JSON.stringify(hashtags)).toEqual(mapathon);
      expect(await tags({ fromDate: SINCE_2019, hashtags })).toEqual([BAD_VALUE]);
    }
    // Whole hashtags only: "hotosm" is not "hotosm-project-123".
    for (const hashtags of ["nope", ["nope"], "hotosm", "mapathon"]) {
      expect(await geo({ fromDate: SINCE_2019, hashtags })).toMatchObject({ features: [], hasMore: false });
      expect(await tags({ fromDate: SINCE_2019, hashtags })).toEqual([]);
      expect(await stats({ fromDate: SINCE_2019, hashtags })).toEqual([]);
    }
    expect(await ids({ fromDate: SINCE_2019, hashtags: [] })).toHaveLength(5);
  });

  it("dates: the changeset's closing time when the store has the changeset, else the edit's timestamp; both bounds inclusive", async () => {
    const mapathon = [UNSQUARED.id, OVERLAP_A.id, OVERLAP_B.id];
    // The mapathon's changeset closed at 10:15:30, after its edits' timestamp (10:15:00).
    expect(await ids({ fromDate: "2025-01-10T10:15:30" })).toEqual(mapathon);
    expect(await ids({ fromDate: "2025-01-10T10:15:31" })).toEqual([]);
    expect(await ids({ fromDate: SINCE_MAPATHON, toDate: "2025-01-10T10:15:30" })).toEqual(mapathon);
    expect(await ids({ fromDate: SINCE_MAPATHON, toDate: "2025-01-10T10:15:29" })).toEqual([]);
    expect(await tags({ fromDate: SINCE_MAPATHON, toDate: "2025-01-10T10:15:29" })).toEqual([]);
    // Monaco's findings have no changeset in the store: their timestamps count.
    expect(await ids({ fromDate: "2019-02-04T08:34:38", toDate: "2019-12-31" })).toEqual([MONACO_NEIGHBOUR.id, MONACO_MOVED_CORNER.id]);
    expect(await ids({ fromDate: "2019-02-04T08:34:39", toDate: "2019-12-31" })).toEqual([MONACO_NEIGHBOUR.id]);
    expect(await ids({ fromDate: "2019-02-04", toDate: "2019-05-07T21:35:21Z" })).toEqual([MONACO_MOVED_CORNER.id]);
  });

  it("area: a finding is in it when its location is (exactly, not by bounding box)", async () => {
    expect(await ids({ fromDate: SINCE_2019, area: MAPATHON_BOX })).toEqual([UNSQUARED.id, OVERLAP_A.id, OVERLAP_B.id]);
    expect(await tags({ fromDate: SINCE_2019, area: MAPATHON_BOX })).toEqual([BAD_VALUE]);
    // The triangle's box holds all four buildings; the triangle holds 1200000002 and 1200000003 only.
    expect(await ids({ fromDate: SINCE_2019, area: MAPATHON_TRIANGLE })).toEqual([UNSQUARED.id, OVERLAP_A.id]);
    expect(await tags({ fromDate: SINCE_2019, area: MAPATHON_TRIANGLE })).toEqual([]);
    expect(await stats({ fromDate: SINCE_2019, area: MAPATHON_TRIANGLE })).toEqual([]);
    expect(await ids({ fromDate: SINCE_2019, area: ringOf(MONACO_CENTRE) })).toEqual([MONACO_NEIGHBOUR.id, MONACO_MOVED_CORNER.id]);
    expect(await ids({ fromDate: SINCE_2019, area: ringOf(MONACO_CENTRE), hashtags: "hotosm-project-123" })).toEqual([]);
  });

  it("pages: page and pageSize, hasMore, and the pages add up to the whole answer", async () => {
    const whole = (await geo({ fromDate: SINCE_2019 })).features;
    const pages = [];
    for (let page = 0; page < 3; page++) pages.push(await geo({ fromDate: SINCE_2019, page, pageSize: 2 }));
    expect(pages.map(({ page, pageSize, hasMore, features }) => ({ page, pageSize, hasMore, count: features.length }))).toEqual([
      { page: 0, pageSize: 2, hasMore: true, count: 2 },
      { page: 1, pageSize: 2, hasMore: true, count: 2 },
      { page: 2, pageSize: 2, hasMore: false, count: 1 },
    ]);
    expect(pages.flatMap((page) => page.features)).toEqual(whole);
    expect(await geo({ fromDate: SINCE_2019, page: 3, pageSize: 2 })).toEqual({ type: "FeatureCollection", features: [], page: 3, pageSize: 2, hasMore: false });
    expect(await geo({ fromDate: SINCE_2019, pageSize: 5 })).toMatchObject({ hasMore: false });
    expect(await geo({ fromDate: SINCE_2019, pageSize: 4 })).toMatchObject({ hasMore: true });
    expect(await tags({ fromDate: SINCE_2019, pageSize: 1 })).toEqual([BAD_VALUE]);
    expect(await tags({ fromDate: SINCE_2019, page: 1, pageSize: 1 })).toEqual([]);
    expect(await stats({ fromDate: SINCE_2019, page: 1 })).toEqual([]);
  });

  it("nothing found: an empty collection or list, never null; CSV: the header alone", async () => {
    const later = { fromDate: "2030-01-01T00:00:00" };
    expect(await geo(later)).toEqual({ type: "FeatureCollection", features: [], page: 0, pageSize: 1000, hasMore: false });
    expect(await tags(later)).toEqual([]);
    expect(await stats(later)).toEqual([]);
    expect((await csv("/report/dataQualityGeo/csv", later)).text).toBe(`${GEO_COLUMNS.join(",")}\r\n`);
    expect((await csv("/report/dataQualityTags/csv", later)).text).toBe(`${TAG_COLUMNS.join(",")}\r\n`);
    expect((await csv("/report/dataQualityTagStats/csv", later)).text).toBe(`${STAT_COLUMNS.join(",")}\r\n`);
  });

  it("every CSV variant holds the JSON answer's rows, lon and lat as columns and lists joined by ;", async () => {
    for (const body of [{ fromDate: SINCE_2019 }, { fromDate: SINCE_2019, page: 1, pageSize: 2 }, { fromDate: SINCE_2019, hashtags: "hotosm-project-123" }]) {
      const features = (await geo(body)).features as Array<{ geometry: { coordinates: [number, number] }; properties: Record<string, unknown> }>;
      const expected = features.map(({ geometry, properties }) => {
        const row: Record<string, unknown> = { ...properties, lon: geometry.coordinates[0], lat: geometry.coordinates[1] };
        return GEO_COLUMNS.map((column) => csvCell(row[column]));
      });
      expect((await csv("/report/dataQualityGeo/csv", body)).records).toEqual([GEO_COLUMNS, ...expected]);

      for (const path of ["/report/dataQualityTags", "/report/dataQualityTag"]) {
        const rows = (await tags(body, path)) as Array<Record<string, unknown>>;
        expect((await csv(`${path}/csv`, body)).records).toEqual([TAG_COLUMNS, ...rows.map((row) => TAG_COLUMNS.map((column) => csvCell(row[column])))]);
      }
      const counts = (await stats(body)) as Array<Record<string, unknown>>;
      expect((await csv("/report/dataQualityTagStats/csv", body)).records).toEqual([STAT_COLUMNS, ...counts.map((row) => STAT_COLUMNS.map((column) => csvCell(row[column])))]);
    }
    // The exact text: lists joined by ";", numbers as JSON writes them.
    const { text } = await csv("/report/dataQualityGeo/csv", { fromDate: SINCE_MAPATHON, pageSize: 1 });
    expect(text).toBe(
      `${GEO_COLUMNS.join(",")}\r\n` +
        `1200000002,way,badgeom,building,not square: 63.4° corner at 7.440373 43.7395,160000001,2025-01-10T10:15:00Z,hotosm-project-123;Mapathon-Monaco,https://www.openstreetmap.org/way/1200000002,${(await geo({ fromDate: SINCE_MAPATHON })).features[0].geometry.coordinates.join(",")}\r\n`,
    );
  });

  describe("a request the reports cannot answer is a 422 naming the member, on every route", () => {
    const cases: Array<[string, unknown, unknown[]]> = [
      ["no fromDate", {}, [{ loc: ["body", "fromDate"], msg: '"fromDate" is missing from the body', type: "missing" }]],
      [
        "a fromDate that is not a date",
        { fromDate: "yesterday" },
        [{ loc: ["body", "fromDate"], msg: '"yesterday" is not a date-time; write it as ISO 8601, e.g. "2025-01-10T10:15:00" (read as UTC) or "2025-01-10"', type: "value_error" }],
      ],
      [
        "a date that does not exist",
        { fromDate: "2025-01-01", toDate: "2025-02-30T00:00:00" },
        [{ loc: ["body", "toDate"], msg: '"2025-02-30T00:00:00" is not a date-time; write it as ISO 8601, e.g. "2025-01-10T10:15:00" (read as UTC) or "2025-01-10"', type: "value_error" }],
      ],
      ["toDate before fromDate", { fromDate: "2025-01-10", toDate: "2025-01-09T23:59:59" }, [{ loc: ["body", "toDate"], msg: 'toDate "2025-01-09T23:59:59" is before fromDate "2025-01-10"', type: "value_error" }]],
      ["hashtags a number", { fromDate: SINCE_2019, hashtags: 5 }, [{ loc: ["body", "hashtags"], msg: '"hashtags" must be a string or an array; found a number (5)', type: "type_error" }]],
      [
        "hashtags with a number",
        { fromDate: SINCE_2019, hashtags: ["hotosm", 5] },
        [{ loc: ["body", "hashtags", 1], msg: 'item 1 of "hashtags" must be a string; found a number (5)', type: "type_error" }],
      ],
      ["an empty hashtag", { fromDate: SINCE_2019, hashtags: "" }, [{ loc: ["body", "hashtags"], msg: '"hashtags" must not be empty', type: "value_error" }]],
      [
        "an area of too few pairs",
        { fromDate: SINCE_2019, area: "7.44 43.73, 7.45 43.73, 7.45 43.74" },
        [
          {
            loc: ["body", "area"],
            msg: 'the area has 3 pairs, too few for a closed ring: write the ring as "lon lat, lon lat, ..." with at least 4 pairs, the last equal to the first',
            type: "value_error",
          },
        ],
      ],
      [
        "an area that is not closed",
        { fromDate: SINCE_2019, area: "7.44 43.73, 7.45 43.73, 7.45 43.74, 7.44 43.74" },
        [
          {
            loc: ["body", "area"],
            msg: "the ring is not closed: pair 1 (7.44 43.73) differs from the last pair, 4 (7.44 43.74); repeat the first pair at the end",
            type: "value_error",
          },
        ],
      ],
      ["an area that crosses itself", { fromDate: SINCE_2019, area: "7.44 43.73, 7.45 43.74, 7.45 43.73, 7.44 43.74, 7.44 43.73" }, [{ loc: ["body", "area"], msg: "the outer ring crosses itself near 7.445 43.735", type: "value_error" }]],
      ["a page size above 5,000", { fromDate: SINCE_2019, pageSize: 5001 }, [{ loc: ["body", "pageSize"], msg: '"pageSize" must be at most 5000; found a number (5001)', type: "value_error" }]],
      ["a negative page", { fromDate: SINCE_2019, page: -1 }, [{ loc: ["body", "page"], msg: '"page" must be at least 0; found a number (-1)', type: "value_error" }]],
      [
        "a page whose rows skipped are past 2^53",
        { fromDate: SINCE_2019, page: 9007199254741 },
        [{ loc: ["body", "page"], msg: `"page" must be at most 1000000000000 (${MAX_PAGE_REASON}); found a number (9007199254741)`, type: "value_error" }],
      ],
      [
        "101 hashtags",
        { fromDate: SINCE_2019, hashtags: Array.from({ length: 101 }, (_, i) => `tag${i}`) },
        [{ loc: ["body", "hashtags"], msg: '"hashtags" must hold at most 100 items; found an array of 101 items', type: "too_long" }],
      ],
      [
        "a hashtag of 256 characters in a list",
        { fromDate: SINCE_2019, hashtags: ["hotosm", "h".repeat(256)] },
        [{ loc: ["body", "hashtags", 1], msg: 'item 1 of "hashtags" must be at most 255 characters long; found 256 characters', type: "string_too_long" }],
      ],
      [
        "a hashtag of 256 characters",
        { fromDate: SINCE_2019, hashtags: "h".repeat(256) },
        [{ loc: ["body", "hashtags"], msg: '"hashtags" must be at most 255 characters long; found 256 characters', type: "string_too_long" }],
      ],
      [
        "a fromDate of 65 characters",
        { fromDate: `2025-01-01T00:00:00.${"0".repeat(45)}` },
        [{ loc: ["body", "fromDate"], msg: '"fromDate" must be at most 64 characters long; found 65 characters', type: "string_too_long" }],
      ],
    ];
    it.each(cases)("%s", async (_name, body, detail) => {
      for (const route of ROUTES) {
        const answer = await server.post(route, body);
        expect(answer.status, route).toBe(422);
        expect(answer.body, route).toEqual({ detail });
        expect(validProblem(answer.body)).toBe(true);
      }
    });

    it("every problem in one 422: the schema's (page, hashtags) with the dates' and the area's", async () => {
      const body = { fromDate: "2025-01-10", toDate: "2025-01-09", area: "7.44 43.73, 7.45 43.74, 7.45 43.73, 7.44 43.74, 7.44 43.73", page: -1, hashtags: 5 };
      for (const route of ROUTES) {
        const answer = await server.post(route, body);
        expect(answer.status, route).toBe(422);
        expect(answer.body.detail.map(({ loc }: { loc: string[] }) => loc.join(".")).sort(), route).toEqual(["body.area", "body.hashtags", "body.page", "body.toDate"]);
        expect(validProblem(answer.body)).toBe(true);
      }
    });
  });

  it("the OpenAPI document lists every report route, JSON and CSV", async () => {
    const { body } = await server.get("/openapi.json");
    for (const route of ROUTES) {
      const operation = body.paths[route].post;
      expect(operation.tags, route).toEqual(["data quality reports"]);
      expect(operation.summary, route).toMatch(/problems/);
      expect(Object.keys(operation.responses[200].content), route).toEqual([route.endsWith("/csv") ? "text/csv" : "application/json"]);
    }
  });

  describe("after more edits", () => {
    beforeAll(async () => {
      await updateStore(db, SECOND, { changesets: CHANGESETS });
    });

    it("the mapathon's second file fixes its problems: they leave every report; Monaco's remain", async () => {
      expect((await geo({ fromDate: SINCE_2019 })).features).toEqual([MONACO_NEIGHBOUR, MONACO_MOVED_CORNER]);
      expect(await tags({ fromDate: SINCE_2019 })).toEqual([]);
      expect(await stats({ fromDate: SINCE_2019 })).toEqual([]);
      expect(await geo({ fromDate: SINCE_2019, hashtags: "hotosm-project-123" })).toMatchObject({ features: [] });
      expect((await csv("/report/dataQualityTags/csv", { fromDate: SINCE_2019 })).records).toEqual([TAG_COLUMNS]);
    });

    it("tag problems of nodes and ways, missing keys among them, counted most frequent first", async () => {
      await updateStore(db, moreProblems(dirname(db)));
      const since = { fromDate: "2025-01-13" };
      const row = (type: string, osmId: number, status: string, tag: string, source: string, timestamp: string) => ({
        osm_id: osmId,
        type,
        link: `https://www.openstreetmap.org/${type}/${osmId}`,
        status,
        tag,
        source,
        changeset: 160_000_004,
        timestamp,
      });
      const expected = [
        row("node", 13_000_000_102, "incomplete", "name", "amenity", "2025-01-13T09:02:00Z"),
        row("node", 13_000_000_101, "badvalue", "place=vilage", "place", "2025-01-13T09:01:00Z"),
        row("node", 13_000_000_101, "incomplete", "name", "place", "2025-01-13T09:01:00Z"),
        row("way", 1_300_000_001, "badvalue", "building=houes", "building", "2025-01-13T09:00:00Z"),
        row("way", 1_300_000_002, "badvalue", "building=houes", "building", "2025-01-13T09:00:00Z"),
        row("way", 1_300_000_003, "badvalue", 'building=ho,"se', "building", "2025-01-13T09:00:00Z"),
      ];
      expect(await tags(since)).toEqual(expected);
      expect([...(await tags({ ...since, pageSize: 4 })), ...(await tags({ ...since, page: 1, pageSize: 4 }))]).toEqual(expected);
      expect(await stats(since)).toEqual([
        { tag: "building=houes", source: "building", status: "badvalue", count: 2 },
        { tag: 'building=ho,"se', source: "building", status: "badvalue", count: 1 },
        { tag: "name", source: "amenity", status: "incomplete", count: 1 },
        { tag: "name", source: "place", status: "incomplete", count: 1 },
        { tag: "place=vilage", source: "place", status: "badvalue", count: 1 },
      ]);
      expect(await stats({ ...since, page: 1, pageSize: 2 })).toEqual([
        { tag: "name", source: "amenity", status: "incomplete", count: 1 },
        { tag: "name", source: "place", status: "incomplete", count: 1 },
      ]);
      // The square buildings have no geometry problem.
      expect((await geo(since)).features).toEqual([]);
      // A field with a comma or a quote is quoted, its quotes doubled.
      expect((await csv("/report/dataQualityTagStats/csv", since)).text).toBe(
        'tag,source,status,count\r\nbuilding=houes,building,badvalue,2\r\n"building=ho,""se",building,badvalue,1\r\nname,amenity,incomplete,1\r\nname,place,incomplete,1\r\nplace=vilage,place,badvalue,1\r\n',
      );
      const { records } = await csv("/report/dataQualityTags/csv", since);
      expect(records).toEqual([TAG_COLUMNS, ...expected.map((row) => TAG_COLUMNS.map((column) => csvCell(row[column as keyof typeof row])))]);
    });
  });
});

/**
 * A change file with tag problems only: three square buildings with misspelt values (two alike,
 * one with a comma and a quote),
 * a misspelt place without a name, and a school without a name. No changeset file: the
 * timestamps are the edits' times.
 */
function moreProblems(folder: string): string {
  const attributes = (timestamp: string) => `version="1" changeset="160000004" timestamp="${timestamp}" uid="4100003" user="report_test"`;
  const square = (wayId: number, firstNode: number, lon: number, value: string) => {
    const corners = [
      [lon, 43.75],
      [lon + 0.0001, 43.75],
      [lon + 0.0001, 43.7501],
      [lon, 43.7501],
    ];
    const nodes = corners.map(([x, y], index) => `<node id="${firstNode + index}" ${attributes("2025-01-13T09:00:00Z")} lat="${y}" lon="${x}"/>`);
    const refs = [0, 1, 2, 3, 0].map((index) => `<nd ref="${firstNode + index}"/>`).join("");
    return [...nodes, `<way id="${wayId}" ${attributes("2025-01-13T09:00:00Z")}>${refs}<tag k="building" v="${value}"/></way>`].join("\n");
  };
  const path = join(folder, "more-problems.osc");
  writeFileSync(
    path,
    `<?xml version="1.0" encoding="UTF-8"?>
<osmChange version="0.6"><create>
${square(1_300_000_001, 13_000_000_001, 7.45, "houes")}
${square(1_300_000_002, 13_000_000_011, 7.451, "houes")}
${square(1_300_000_003, 13_000_000_021, 7.452, "ho,&quot;se")}
<node id="13000000101" ${attributes("2025-01-13T09:01:00Z")} lat="43.752" lon="7.45"><tag k="place" v="vilage"/></node>
<node id="13000000102" ${attributes("2025-01-13T09:02:00Z")} lat="43.752" lon="7.451"><tag k="amenity" v="school"/></node>
</create></osmChange>
`,
  );
  return path;
}
