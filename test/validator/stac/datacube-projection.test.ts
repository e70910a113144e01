/**
 * --stac on items that declare datacube 2.x and projection 1.0.0 to 2.0.0, each bundled version
 * with the PROJJSON schema it refers to (v0.2, v0.4, v0.5, v0.7, from PROJ): a valid item is
 * checked offline with no warning, and each fault in cube:dimensions, proj:epsg / proj:code or
 * proj:projjson is one finding at the place to look, in our words, with none of the noise of the
 * unions those schemas are made of (datacube's five kinds of dimension, PROJJSON's 30 objects).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateItemText } from "../../../src/index.js";
import { basemodel, scratchDir, writeIn } from "../../cli/helpers.js";

const REALISTIC = readFileSync(path.resolve(__dirname, "../../../fixtures/valid/realistic-segmentation.json"), "utf8");
const url = (extension: string, version: string) => `https://stac-extensions.github.io/${extension}/v${version}/schema.json`;

/** WGS 84 in PROJJSON, valid in every PROJJSON version (0.2 to 0.7). */
const WGS84 = {
  type: "GeographicCRS",
  name: "WGS 84",
  datum: {
    type: "GeodeticReferenceFrame",
    name: "World Geodetic System 1984",
    ellipsoid: { name: "WGS 84", semi_major_axis: 6378137, inverse_flattening: 298.257223563 },
  },
  coordinate_system: {
    subtype: "ellipsoidal",
    axis: [
      { name: "Geodetic latitude", abbreviation: "Lat", direction: "north", unit: "degree" },
      { name: "Geodetic longitude", abbreviation: "Lon", direction: "east", unit: "degree" },
    ],
  },
  id: { authority: "EPSG", code: 4326 },
};

const DIMENSIONS = {
  x: { type: "spatial", axis: "x", extent: [-180, 180], reference_system: WGS84 },
  y: { type: "spatial", axis: "y", extent: [-90, 90], reference_system: 4326 },
  time: { type: "temporal", extent: ["2025-01-01T00:00:00Z", null] },
  band: { type: "bands", values: ["red", "green", "blue"] },
};

/** The realistic fixture declaring one more extension, with these properties, as a user writes it. */
function itemText(extension: string, properties: Record<string, unknown>): string {
  const item = JSON.parse(REALISTIC);
  item.stac_extensions.push(extension);
  Object.assign(item.properties, properties);
  return JSON.stringify(item, null, 2);
}

/** Line and column (1-based) of the first occurrence of `needle` in `text`, `skip` characters into it. */
function positionOf(text: string, needle: string, skip = 0): { line: number; column: number } {
  const offset = text.indexOf(needle);
  expect(offset, needle).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, offset + skip).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

function issuesOf(text: string) {
  const { errors, warnings } = validateItemText(text, { stac: true, maxErrors: Infinity });
  return [...errors, ...warnings];
}

/** Words that belong to the schemas' machinery, not to a message about the item. */
const NOISE = /oneOf|anyOf|allOf|\bif\b|\bthen\b|forms? the schema|any of the forms|must be "BoundCRS"/;

describe("the bundled versions are checked offline", () => {
  it.each(["2.0.0", "2.1.0", "2.2.0", "2.3.0"])("datacube %s: a valid item, PROJJSON in a reference system included, has no finding", (version) => {
    expect(validateItemText(itemText(url("datacube", version), { "cube:dimensions": DIMENSIONS }), { stac: true })).toEqual({ valid: true, errors: [], warnings: [], omitted: 0 });
  });

  it.each([
    ["1.0.0", { "proj:epsg": 4326, "proj:projjson": WGS84 }],
    ["1.1.0", { "proj:epsg": 4326, "proj:projjson": WGS84 }],
    ["1.2.0", { "proj:epsg": null, "proj:projjson": WGS84 }],
    ["2.0.0", { "proj:code": "EPSG:4326", "proj:projjson": WGS84 }],
  ])("projection %s: a valid item with proj:projjson has no finding", (version, properties) => {
    expect(validateItemText(itemText(url("projection", version), properties), { stac: true })).toEqual({ valid: true, errors: [], warnings: [], omitted: 0 });
  });
});

interface Fault {
  name: string;
  extension: string;
  version: string;
  properties: Record<string, unknown>;
  /** Each finding expected: its path, message, and where in the text it points (a needle and how far into it). */
  expected: Array<{ path: string; message: string; at: [string, number]; suggestion?: string }>;
}

const withDimension = (dimension: Record<string, unknown>) => ({ "cube:dimensions": { ...DIMENSIONS, x: dimension } });
const crsMissingDatum = { type: "GeographicCRS", name: "WGS 84", coordinate_system: WGS84.coordinate_system };

const FAULTS: Fault[] = [
  {
    name: "a spatial dimension on an axis that is not x or y",
    extension: "datacube",
    version: "2.0.0",
    properties: withDimension({ type: "spatial", axis: "q", extent: [0, 1] }),
    expected: [{ path: "/properties/cube:dimensions/x/axis", message: 'properties.cube:dimensions.x.axis must be one of "x", "y"; found a string ("q")', at: ['"axis": "q"', 8], suggestion: 'did you mean "x"?' }],
  },
  {
    name: "a reference system whose PROJJSON type is misspelt",
    extension: "datacube",
    version: "2.1.0",
    properties: withDimension({ type: "spatial", axis: "x", extent: [0, 1], reference_system: { ...WGS84, type: "GeographicCrs" } }),
    expected: [{ path: "/properties/cube:dimensions/x/reference_system/type", message: expect.stringMatching(/^properties\.cube:dimensions\.x\.reference_system\.type must be one of .*"GeographicCRS".*; found a string \("GeographicCrs"\)$/), at: ['"type": "GeographicCrs"', 8], suggestion: 'did you mean "GeographicCRS"?' }],
  },
  {
    name: "a temporal extent that starts with a number",
    extension: "datacube",
    version: "2.2.0",
    properties: withDimension({ type: "temporal", extent: [2025, "2026-01-01T00:00:00Z"] }),
    expected: [{ path: "/properties/cube:dimensions/x/extent/0", message: "properties.cube:dimensions.x.extent[0] must be a string or null; found a number (2025)", at: ["2025,", 0] }],
  },
  {
    name: "a projected CRS without its base CRS, conversion and coordinate system",
    extension: "datacube",
    version: "2.3.0",
    properties: withDimension({ type: "spatial", axis: "x", extent: [0, 1], reference_system: { type: "ProjectedCRS", name: "WGS 84 / UTM zone 32N" } }),
    expected: ["base_crs", "conversion", "coordinate_system"].map((member) => ({
      path: `/properties/cube:dimensions/x/reference_system/${member}`,
      message: `"${member}" is missing from properties.cube:dimensions.x.reference_system`,
      at: ['"reference_system": {', 0] as [string, number],
    })),
  },
  {
    name: "an EPSG code written as a string",
    extension: "projection",
    version: "1.0.0",
    properties: { "proj:epsg": "4326" },
    expected: [{ path: "/properties/proj:epsg", message: 'properties.proj:epsg must be an integer or null; found a string ("4326")', at: ['"proj:epsg": "4326"', 13] }],
  },
  {
    name: "a datum without its ellipsoid, deep in proj:projjson",
    extension: "projection",
    version: "1.1.0",
    properties: { "proj:epsg": 4326, "proj:projjson": { ...WGS84, datum: { type: "GeodeticReferenceFrame", name: "World Geodetic System 1984" } } },
    expected: [{ path: "/properties/proj:projjson/datum/ellipsoid", message: '"ellipsoid" is missing from properties.proj:projjson.datum', at: ['"datum": {', 0] }],
  },
  {
    name: "a geographic CRS with neither datum nor datum ensemble",
    extension: "projection",
    version: "1.2.0",
    properties: { "proj:epsg": 4326, "proj:projjson": crsMissingDatum },
    expected: [{ path: "/properties/proj:projjson/datum", message: 'properties.proj:projjson must have one of "datum", "datum_ensemble"; it has none', at: ['"proj:projjson": {', 0] }],
  },
  {
    name: "an EPSG code where proj:code wants a string, and a member PROJJSON does not define",
    extension: "projection",
    version: "2.0.0",
    properties: { "proj:code": 4326, "proj:projjson": { ...WGS84, datum_name: "WGS84" } },
    expected: [
      { path: "/properties/proj:code", message: "properties.proj:code must be a string or null; found a number (4326)", at: ['"proj:code": 4326', 13] },
      { path: "/properties/proj:projjson/datum_name", message: 'unknown member "datum_name" in properties.proj:projjson; the known members are type, name, datum, datum_ensemble, coordinate_system, deformation_models, $schema, scope, area, bbox, vertical_extent, temporal_extent, usages, remarks, id and 1 more', at: ['"datum_name": "WGS84"', 14] },
    ],
  },
];

describe("faults in datacube and projection members", () => {
  it.each(FAULTS.map((fault) => [`${fault.extension} ${fault.version}: ${fault.name}`, fault] as const))("%s", (_, fault) => {
    const text = itemText(url(fault.extension, fault.version), fault.properties);
    const issues = issuesOf(text);
    const schema = url(fault.extension, fault.version);
    expect(issues.map(({ rule, path, message, suggestion, schema }) => ({ rule, path, message, suggestion, schema }))).toEqual(
      fault.expected.map(({ path, message, suggestion }) => ({ rule: "stac-extension", path, message, suggestion, schema })),
    );
    issues.forEach((issue, index) => {
      const [needle, skip] = fault.expected[index]!.at;
      expect({ line: issue.line, column: issue.column }, issue.message).toEqual(positionOf(text, needle, skip));
      expect(issue.message).not.toMatch(NOISE);
    });
  });
});

describe("basemodel validate --stac", () => {
  it("prints a PROJJSON fault at file:line:col, exit 1, and the valid item with exit 0 and no warning", async () => {
    const dir = scratchDir();
    const text = itemText(url("projection", "1.2.0"), { "proj:epsg": 4326, "proj:projjson": crsMissingDatum });
    const file = writeIn(dir, "item.json", text);
    const { line, column } = positionOf(text, '"proj:projjson": {');
    const run = await basemodel(["validate", "--stac", "--no-color", file], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${file}:${line}:${column}  error  stac-extension  properties.proj:projjson must have one of "datum", "datum_ensemble"; it has none`);
    const valid = writeIn(dir, "valid.json", itemText(url("datacube", "2.1.0"), { "cube:dimensions": DIMENSIONS }));
    const ok = await basemodel(["validate", "--stac", "--no-color", valid], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("0 errors, 0 warnings");
  });
});
