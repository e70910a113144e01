import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { rulesMarkdown } from "../../src/validator/item/rules-doc.js";
import { basemodel, itemWithWarningText, ROOT, scratchDir } from "./helpers.js";

const dir = scratchDir();
const valid = itemWithWarningText();
const broken = valid.replace('"license": "AGPL-3.0-only"', '"license": "GPL, 3.0%\\nor later"');
writeFileSync(join(dir, "bad.json"), broken);
writeFileSync(join(dir, "ok.json"), valid);

describe("basemodel rules and schema", () => {
  it("docs/rules.md is exactly what the code generates, and `basemodel rules` prints it", async () => {
    expect(readFileSync(join(ROOT, "docs/rules.md"), "utf8")).toBe(rulesMarkdown());
    expect((await basemodel(["rules"])).stdout).toBe(rulesMarkdown());
    const json = JSON.parse((await basemodel(["rules", "--json"])).stdout);
    expect(json.map((rule: { id: string }) => rule.id)).toContain("schema-url");
  });

  it("prints the published schema, and a re-targeted one with --prefix and --schema-url", async () => {
    const published = JSON.parse((await basemodel(["schema"])).stdout);
    expect(published).toEqual(JSON.parse(readFileSync(join(ROOT, "schema/base-model-item.schema.json"), "utf8")));
    const run = await basemodel(["schema", "--prefix", "svc", "--schema-url", "https://example.org/s.json"]);
    const schema = JSON.parse(run.stdout);
    expect(schema.$id).toBe("https://example.org/s.json");
    expect(schema.definitions.properties.required).toContain("svc:split_spec");
    expect(run.stdout).not.toContain("fair:");
    // Another tool can use it: an independent validator accepts an svc: item listing that identifier.
    const item = JSON.parse(valid.replaceAll('"fair:', '"svc:').replace("https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json", "https://example.org/s.json"));
    delete item.properties["svc:hyperparameters_spec"];
    expect(new Validator(schema, "7", false).validate(item).valid).toBe(true);
  });
});

describe("basemodel validate: configuration", () => {
  it("finds basemodel.config.json upward, and flags win over it", async () => {
    const project = join(dir, "project");
    mkdirSync(join(project, "deep/er"), { recursive: true });
    writeFileSync(join(project, "basemodel.config.json"), JSON.stringify({ strict: true, format: "json" }));
    writeFileSync(join(project, "deep/er/item.json"), valid);
    const fromFile = await basemodel(["validate", "item.json"], { cwd: join(project, "deep/er") });
    expect(fromFile.code).toBe(1);
    expect(JSON.parse(fromFile.stdout).settings.strict).toBe(true);
    const flagWins = await basemodel(["validate", "item.json", "--no-strict", "--format", "text"], { cwd: join(project, "deep/er") });
    expect(flagWins.code).toBe(0);
    expect(flagWins.stdout).toContain("item.json");
  });

  it('reads a "basemodel" key in package.json', async () => {
    const project = join(dir, "pkg");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "catalogue", basemodel: { prefix: "svc:" } }));
    writeFileSync(join(project, "item.json"), valid);
    const run = await basemodel(["validate", "item.json", "--format", "json"], { cwd: project });
    expect(JSON.parse(run.stdout).settings.prefix).toBe("svc:");
    expect(run.code).toBe(1); // a fair: item is missing svc:metrics_spec and svc:split_spec
  });

  it("rejects a bad configuration with exit 2 and says what is wrong", async () => {
    const project = join(dir, "badconfig");
    mkdirSync(project);
    writeFileSync(join(project, "item.json"), valid);
    writeFileSync(join(project, "basemodel.config.json"), JSON.stringify({ maxErrors: "ten" }));
    const wrongType = await basemodel(["validate", "item.json"], { cwd: project });
    expect(wrongType.code).toBe(2);
    expect(wrongType.stderr).toContain('maxErrors must be an integer; found a string ("ten")');
    writeFileSync(join(project, "basemodel.config.json"), JSON.stringify({ strcit: true }));
    expect((await basemodel(["validate", "item.json"], { cwd: project })).stderr).toContain('unknown member "strcit" in the configuration');
    writeFileSync(join(project, "basemodel.config.json"), "{");
    expect((await basemodel(["validate", "item.json"], { cwd: project })).code).toBe(2);
    expect((await basemodel(["validate", "item.json", "--config", "nope.json"], { cwd: project })).code).toBe(2);
  });
});

describe("basemodel validate: every format on real output", () => {
  it("text: colours only when asked (FORCE_COLOR) and never with NO_COLOR", async () => {
    const plain = await basemodel(["validate", "bad.json"], { cwd: dir });
    expect(plain.stdout).not.toMatch(/\x1b\[/);
    expect(plain.stdout).toMatch(/bad\.json:\d+:\d+ {2}error {2}enum/);
    expect((await basemodel(["validate", "bad.json"], { cwd: dir, env: { FORCE_COLOR: "1" } })).stdout).toMatch(/\x1b\[/);
    expect((await basemodel(["validate", "bad.json"], { cwd: dir, env: { NO_COLOR: "1" } })).stdout).not.toMatch(/\x1b\[/);
    expect((await basemodel(["validate", "bad.json", "--color"], { cwd: dir, env: { NO_COLOR: "1" } })).stdout).toMatch(/\x1b\[/);
    const quiet = await basemodel(["validate", "ok.json", "bad.json", "--quiet"], { cwd: dir });
    expect(quiet.stdout).not.toMatch(/^ok\.json/m);
  });

  it("github: escaped annotations, and the full table in GITHUB_STEP_SUMMARY", async () => {
    const summary = join(dir, "summary.md");
    const run = await basemodel(["validate", "bad.json", "ok.json", "--format", "github"], { cwd: dir, env: { GITHUB_STEP_SUMMARY: summary } });
    expect(run.code).toBe(1);
    const [annotation] = run.stdout.split("\n").filter((line) => line.startsWith("::error"));
    expect(annotation).toMatch(/^::error file=bad\.json,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=basemodel enum::/);
    expect(annotation).toContain("GPL, 3.0%25\\nor later");
    expect(readFileSync(summary, "utf8")).toContain("| bad.json |");
  });

  it("sarif: a SARIF 2.1.0 log with the rule and a relative location", async () => {
    const log = JSON.parse((await basemodel(["validate", "bad.json", "--format", "sarif"], { cwd: dir })).stdout);
    expect(log.version).toBe("2.1.0");
    const [result] = log.runs[0].results;
    expect(result.ruleId).toBe("enum");
    expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe("bad.json");
    expect(result.locations[0].physicalLocation.region.startLine).toBeGreaterThan(1);
  });

  it("junit: one test case per item, the failure carries the message", async () => {
    const xml = (await basemodel(["validate", "bad.json", "ok.json", "--format", "junit"], { cwd: dir })).stdout;
    expect(xml.match(/<testcase /g)).toHaveLength(2);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toContain("must be one of");
  });
});
