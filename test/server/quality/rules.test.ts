import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_QUALITY_RULES_PATH, loadQualityRules, parseQualityRules } from "../../../src/server/quality/rules.js";
import type { QualityRules } from "../../../src/server/quality/rules.js";
import { afterFile } from "../../support/cleanup.js";
import { STRING_GIVEN_5, unknownMember } from "../../support/wording.js";

const folder = mkdtempSync(join(tmpdir(), "basemodel-quality-rules-"));
afterFile(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

/** The message of what `loadQualityRules` throws for a file holding `text`. */
async function failure(name: string, text: string): Promise<string> {
  const path = file(name, text);
  const error = await loadQualityRules(path).then(
    () => null,
    (caught: unknown) => caught as Error,
  );
  expect(error, `${name} should be refused`).toBeInstanceOf(Error);
  return error!.message.replace(path, "<file>");
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);

describe("loadQualityRules", () => {
  it("loads the shipped default quality rules when given no path", async () => {
    const rules = await loadQualityRules();
    expect(rules).toEqual(await loadQualityRules(DEFAULT_QUALITY_RULES_PATH));
    const building = rules.sources.find(({ source }) => source === "building")!;
    expect(building).toMatchObject({ match: [{ key: "building", value: null }], valid: true, squareness: { threshold: 10 }, overlapping: true, duplicate: true });
    const buildingValues = building.allowedValues.find(({ key }) => key === "building")!.values;
    for (const value of ["yes", "house", "residential", "apartments", "commercial", "industrial", "retail", "school", "church", "hospital", "hut", "garage", "shed", "roof"]) {
      expect(buildingValues).toContain(value);
    }
    expect(rules.sources.map(({ source }) => source)).toEqual(["building", "highway", "place", "amenity"]);
    expect(rules.sources.find(({ source }) => source === "amenity")!.required).toEqual(["name"]);
  });

  it("fills in every default", () => {
    const rules = parseQualityRules({ sources: { building: { squareness: true }, shop: { match: ["shop=bakery", "craft"], required: ["name"] } } }, "inline");
    expect(rules).toEqual<QualityRules>({
      sources: [
        {
          source: "building",
          match: [{ key: "building", value: null }],
          valid: false,
          squareness: { threshold: 10 },
          overlapping: false,
          duplicate: false,
          allowedValues: [],
          required: [],
        },
        {
          source: "shop",
          match: [
            { key: "shop", value: "bakery" },
            { key: "craft", value: null },
          ],
          valid: false,
          squareness: null,
          overlapping: false,
          duplicate: false,
          allowedValues: [],
          required: ["name"],
        },
      ],
    });
    expect(parseQualityRules({ sources: { building: { squareness: {} } } }, "inline").sources[0]!.squareness).toEqual({ threshold: 10 });
    expect(parseQualityRules({ sources: { building: { squareness: false } } }, "inline").sources[0]!.squareness).toBeNull();
    expect(parseQualityRules({ sources: { a: { match: "k=v=w", valid: true } } }, "inline").sources[0]!.match).toEqual([{ key: "k", value: "v=w" }]);
  });

  it("reads the YAML and the JSON form of quality rules alike", async () => {
    const yaml = `
# Buildings: geometry and values
sources:
  building:
    valid: true
    squareness: { threshold: 12.5 }
    overlapping: true
    duplicate: true
    values:
      building: [yes, house, "no"]
  amenity:
    match:
      - amenity=school
      - amenity=hospital
    required: [name, "addr:street"]
`;
    const same = {
      sources: {
        building: { valid: true, squareness: { threshold: 12.5 }, overlapping: true, duplicate: true, values: { building: ["yes", "house", "no"] } },
        amenity: { match: ["amenity=school", "amenity=hospital"], required: ["name", "addr:street"] },
      },
    };
    const fromYaml = await loadQualityRules(file("same.yaml", yaml));
    expect(fromYaml).toEqual(await loadQualityRules(file("same.json", json(same))));
    expect(await loadQualityRules(file("same.yml", yaml))).toEqual(fromYaml);
    // YAML 1.2: yes and no are strings, not booleans.
    expect(fromYaml.sources[0]!.allowedValues).toEqual([{ key: "building", values: ["yes", "house", "no"] }]);
  });

  it("says which file is missing", async () => {
    const path = join(folder, "absent.json");
    await expect(loadQualityRules(path)).rejects.toThrow(`Cannot read the quality rules file ${path}: no such file`);
  });

  it("refuses a file whose format its name does not tell", async () => {
    const path = file("rules.txt", "{}");
    await expect(loadQualityRules(path)).rejects.toThrow(`Cannot read the quality rules file ${path}: its name must end in .json, .yaml or .yml, which says how to read it`);
  });

  it("locates JSON syntax errors", async () => {
    expect(await failure("comma.json", '{\n  "sources": {},\n}')).toBe("The quality rules file <file> is not valid JSON: Unexpected token RBrace found. (3:1)");
    expect(await failure("empty.json", "")).toMatch(/^The quality rules file <file> is not valid JSON: Unexpected end of input found\. \(1:1\)$/);
  });

  it("refuses a JSON member written twice, as YAML does", async () => {
    const text = '{\n  "sources": {\n    "building": { "valid": true },\n    "building": { "duplicate": true }\n  }\n}';
    expect(await failure("twice.json", text)).toBe("The quality rules file <file> has sources.building twice (again at line 4, column 5): write each member once");
    const deep = json({ sources: { a: { match: ["a", "b"], valid: true } } }).replace('"valid": true', '"valid": true, "valid": false');
    expect(await failure("deep.json", deep)).toMatch(/^The quality rules file <file> has sources\.a\.valid twice \(again at line \d+, column \d+\)/);
  });

  it("reads the examples of docs/quality.md as the same quality rules", async () => {
    const doc = readFileSync(new URL("../../../docs/quality.md", import.meta.url), "utf8");
    const block = (language: string): string => doc.match(new RegExp("```" + language + "\n([\\s\\S]*?)```"))![1]!;
    const fromYaml = await loadQualityRules(file("doc.yaml", block("yaml")));
    expect(fromYaml.sources.map(({ source }) => source)).toEqual(["building", "highway", "health"]);
    expect(await loadQualityRules(file("doc.json", block("json")))).toEqual(fromYaml);
  });

  it("locates YAML syntax errors", async () => {
    const message = await failure("broken.yaml", "sources:\n  building: [valid\n");
    expect(message).toMatch(/^The quality rules file <file> is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a \] at line 3, column 1:\n\n {2}building: \[valid\n/);
    expect(await failure("twice.yaml", "sources: {}\nsources: {}\n")).toMatch(/^The quality rules file <file> is not valid YAML: Map keys must be unique at line 2, column 1/);
  });

  it("names the member and what was expected for each shape problem", async () => {
    const checks = "match, valid, squareness, overlapping, duplicate, values and required";
    const cases: Array<[unknown, string]> = [
      [[], "the quality rules must be an object; found an empty array"],
      [{}, '"sources" is missing from the quality rules'],
      [{ sources: {}, version: 1 }, 'unknown member "version" in the quality rules; the known members are sources'],
      [{ sources: [] }, "sources must be an object; found an empty array"],
      [{ sources: { building: true } }, "sources.building must be an object; found a boolean (true)"],
      [{ sources: { building: { sqaureness: true } } }, `unknown member "sqaureness" in sources.building; the known members are ${checks} (did you mean "squareness"?)`],
      [{ sources: { building: { match: "building" } } }, "sources.building has no check: give at least one of valid, squareness, overlapping, duplicate, values and required"],
      [{ sources: { building: { valid: "yes" } } }, 'sources.building.valid must be a boolean; found a string ("yes")'],
      [{ sources: { building: { duplicate: 1 } } }, "sources.building.duplicate must be a boolean; found a number (1)"],
      [{ sources: { building: { squareness: -5 } } }, "sources.building.squareness must be a boolean or an object; found a number (-5)"],
      [{ sources: { building: { squareness: { threshold: -5 } } } }, "sources.building.squareness.threshold must be at least 0; found a number (-5)"],
      [
        { sources: { building: { squareness: { threshold: 50 } } } },
        "sources.building.squareness.threshold must be at most 45 (degrees; above 45 the tolerances around 90° and 180° would meet and every corner would pass); found a number (50)",
      ],
      [{ sources: { building: { squareness: { threshold: "10" } } } }, 'sources.building.squareness.threshold must be a number; found a string ("10")'],
      [{ sources: { building: { squareness: { degrees: 10 } } } }, 'unknown member "degrees" in sources.building.squareness; the known members are threshold'],
      [{ sources: { building: { match: [], valid: true } } }, "sources.building.match must hold at least 1 item; found an empty array"],
      [{ sources: { building: { match: ["building", 3], valid: true } } }, "sources.building.match[1] must be a string; found a number (3)"],
      [{ sources: { building: { match: "=yes", valid: true } } }, 'sources.building.match must be a tag term, "key" or "key=value", with a non-empty key and value; found a string ("=yes")'],
      [{ sources: { building: { match: ["a", "k="], valid: true } } }, 'sources.building.match[1] must be a tag term, "key" or "key=value", with a non-empty key and value; found a string ("k=")'],
      [{ sources: { building: { values: ["yes"] } } }, "sources.building.values must be an object; found an array of 1 item"],
      [{ sources: { building: { values: { building: "yes" } } } }, 'sources.building.values.building must be an array; found a string ("yes")'],
      [{ sources: { building: { values: { building: [] } } } }, "sources.building.values.building must hold at least 1 item; found an empty array"],
      [{ sources: { building: { values: { "roof shape": ["flat", null] } } } }, 'sources.building.values["roof shape"][1] must be a string; found null'],
      [{ sources: { building: { values: { "": ["x"] } } } }, 'the member name "" in sources.building.values must not be empty'],
      [{ sources: { shop: { required: "name" } } }, 'sources.shop.required must be an array; found a string ("name")'],
      [{ sources: { shop: { required: ["name", ""] } } }, "sources.shop.required[1] must not be empty"],
      [{ sources: { "": { valid: true } } }, 'the member name "" in sources must not be empty'],
    ];
    for (const [data, expected] of cases) {
      expect(await failure("shape.json", json(data)), json(data)).toBe(`Invalid quality rules <file>: ${expected}`);
    }
  });

  it("words a wrong type and an unknown member as every JSON input does", async () => {
    const message = await failure("same-words.json", json({ sources: { building: { values: { building: [5] }, sqaureness: true } } }));
    expect(message).toBe(
      `Invalid quality rules <file>: ${unknownMember("sqaureness", "sources.building")}match, valid, squareness, overlapping, duplicate, values and required (did you mean "squareness"?); ` +
        `sources.building.values.building[0] ${STRING_GIVEN_5}`,
    );
  });

  it("lists every problem of a file at once, YAML included", async () => {
    const yaml = "sources:\n  building:\n    valid: yes\n    squareness:\n      threshold: -1\n    colour: red\n";
    expect(await failure("many.yaml", yaml)).toBe(
      'Invalid quality rules <file>: unknown member "colour" in sources.building; the known members are match, valid, squareness, overlapping, duplicate, values and required; ' +
        'sources.building.valid must be a boolean; found a string ("yes"); ' +
        "sources.building.squareness.threshold must be at least 0; found a number (-1)",
    );
  });
});
