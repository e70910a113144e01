/**
 * --rules, --fair-checks and --profile on the real CLI: every format says which rule set judged
 * each item, the configuration file takes the same settings, flags win over the file and over a
 * profile, and `basemodel schema --rules` prints each set's schema. On fixtures/rules/.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { basemodel, ROOT, scratchDir } from "./helpers.js";

const RULES = "fixtures/rules";
const CURRENT = `${RULES}/v1.0.0-current/valid.json`;
const V110 = `${RULES}/v1.1.0/valid.json`;
const KEYWORD = `${RULES}/fair-checks/keyword-case.json`;
const last = (stdout: string) => stdout.trimEnd().split("\n").at(-1);

describe("basemodel validate --rules", () => {
  it("the summary line names the rule set; the default is the specification's", async () => {
    expect(last((await basemodel(["validate", CURRENT, "--rules", "v1.0.0-current"])).stdout)).toMatch(/^1 file, 1 item: 1 valid, 0 invalid; 0 errors, 0 warnings; rules v1.0.0-current \(\d+ ms\)$/);
    expect(last((await basemodel(["validate", "fixtures/valid/minimal.json"])).stdout)).toMatch(/; rules v1.0.0 \(\d+ ms\)$/);
  });

  it("auto judges each item by the identifier it lists, and the summary counts the items of each set", async () => {
    const run = await basemodel(["validate", CURRENT, V110, `${RULES}/v1.0.0/weights-in-model.json`, "--rules", "auto"]);
    expect(run.code).toBe(0);
    expect(last(run.stdout)).toMatch(/; rules v1.0.0 for 2 items, v1.1.0 for 1 item \(\d+ ms\)$/);
  });

  it("an issue of a rule set is printed at its place, with its likely fix", async () => {
    const run = await basemodel(["validate", `${RULES}/v1.0.0/weights-in-model.json`, "--rules", "v1.0.0-current"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `${RULES}/v1.0.0/weights-in-model.json:291:28  error  const  assets.model.mlm:artifact_type must be "onnx"; found a string ("torch.save") (the weights asset is "checkpoint" under these rules; "model" holds only an ONNX export)`,
    );
  });

  it("refuses a rule set it does not know (exit 2)", async () => {
    const run = await basemodel(["validate", CURRENT, "--rules", "v2"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("argument 'v2' is invalid. Allowed choices are v1.0.0, v1.0.0-current, v1.1.0, auto.");
  });
});

describe("basemodel validate --fair-checks and --profile fair-ci", () => {
  it("--fair-checks reports each unknown keyword at its place, with what it likely is", async () => {
    const run = await basemodel(["validate", KEYWORD, "--rules", "v1.0.0-current", "--fair-checks"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${KEYWORD}:38:18  error  fair-keyword  properties.keywords[0] is not a keyword fAIr's catalogue accepts`);
    expect(run.stdout).toContain('found a string ("Building") (did you mean "building"?)');
  });

  it("--profile fair-ci is --stac --rules v1.0.0-current --fair-checks", async () => {
    const valid = JSON.parse((await basemodel(["validate", CURRENT, "--profile", "fair-ci", "--format", "json"])).stdout);
    expect(valid.settings).toMatchObject({ stac: true, rules: "v1.0.0-current", fairChecks: true });
    expect(valid.summary).toMatchObject({ valid: 1, invalid: 0, ruleSets: { "v1.0.0-current": 1 } });
    const run = await basemodel(["validate", KEYWORD, "--profile", "fair-ci"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("fair-keyword");
  });

  it("flags given beside the profile win", async () => {
    const run = await basemodel(["validate", KEYWORD, "--profile", "fair-ci", "--no-fair-checks", "--format", "json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).settings).toMatchObject({ stac: true, rules: "v1.0.0-current", fairChecks: false });
  });
});

describe("the configuration file", () => {
  const dir = scratchDir();
  const item = join(dir, "item.json");
  writeFileSync(item, readFileSync(KEYWORD));
  const withConfig = (config: object, ...args: string[]) => {
    writeFileSync(join(dir, "basemodel.config.json"), JSON.stringify(config));
    return basemodel(["validate", "item.json", "--format", "json", ...args], { cwd: dir });
  };

  it("takes profile, rules and fairChecks; flags win over it", async () => {
    expect(JSON.parse((await withConfig({ profile: "fair-ci" })).stdout).settings).toMatchObject({ stac: true, rules: "v1.0.0-current", fairChecks: true });
    expect(JSON.parse((await withConfig({ profile: "fair-ci", fairChecks: false })).stdout).settings).toMatchObject({ stac: true, fairChecks: false });
    expect(JSON.parse((await withConfig({ rules: "v1.1.0", fairChecks: true })).stdout).settings).toMatchObject({ stac: false, rules: "v1.1.0", fairChecks: true });
    // A profile given as a flag fills in what the flags do not say, before the file's settings.
    const flagged = JSON.parse((await withConfig({ rules: "v1.1.0", stac: false }, "--profile", "fair-ci")).stdout);
    expect(flagged.settings).toMatchObject({ stac: true, rules: "v1.0.0-current", fairChecks: true });
  });

  it("refuses a value it does not take, saying which it takes (exit 2)", async () => {
    const run = await withConfig({ rules: "latest", profile: "ci", fairChecks: "yes" });
    expect(run.code).toBe(2);
    const config = join(dir, "basemodel.config.json");
    expect(run.stderr.split("\n").filter(Boolean)).toEqual([
      `basemodel: ${config}: rules must be one of "v1.0.0", "v1.0.0-current", "v1.1.0", "auto"; found a string ("latest")`,
      `basemodel: ${config}: fairChecks must be a boolean; found a string ("yes")`,
      `basemodel: ${config}: profile must be "fair-ci"; found a string ("ci")`,
    ]);
  });
});

describe("every format says which rule set judged each item", () => {
  const args = ["validate", CURRENT, V110, "--rules", "auto", "--format"];

  it("json: the settings, each item, and the counts of the summary", async () => {
    const report = JSON.parse((await basemodel([...args, "json"])).stdout);
    expect(report.settings).toMatchObject({ rules: "auto", fairChecks: false });
    expect(report.files.map((file: { items: { ruleSet: string }[] }) => file.items[0]!.ruleSet)).toEqual(["v1.0.0", "v1.1.0"]);
    expect(report.summary.ruleSets).toEqual({ "v1.0.0": 1, "v1.1.0": 1 });
  });

  it("sarif: each result's properties", async () => {
    const log = JSON.parse((await basemodel(["validate", `${RULES}/v1.1.0/undefined-prefixed.json`, "--rules", "auto", "--format", "sarif"])).stdout);
    expect(log.runs[0].results.map((result: { ruleId: string; properties: object }) => [result.ruleId, result.properties])).toEqual([
      ["unknown-prefixed-property", { ruleSet: "v1.1.0" }],
    ]);
  });

  it("junit: a property of each test case", async () => {
    const xml = (await basemodel([...args, "junit"])).stdout;
    expect(xml).toContain('<property name="ruleSet" value="v1.0.0"/>');
    expect(xml).toContain('<property name="ruleSet" value="v1.1.0"/>');
  });

  it("github: the step summary", async () => {
    const summary = join(scratchDir(), "summary.md");
    await basemodel([...args, "github"], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(readFileSync(summary, "utf8")).toContain("Judged by rules v1.0.0 for 1 item, v1.1.0 for 1 item.");
  });
});

describe("basemodel schema --rules", () => {
  it("prints each rule set's schema; the default is the specification's", async () => {
    const v11 = JSON.parse((await basemodel(["schema", "--rules", "v1.1.0"])).stdout);
    expect(v11.$id).toBe("https://hotosm.github.io/fAIr-models/schemas/v1.1.0/base-model/schema.json");
    expect(v11.definitions.properties.required).toContain("fair:category");
    const current = JSON.parse((await basemodel(["schema", "--rules", "v1.0.0-current"])).stdout);
    expect(current.definitions.assets.required).toContain("checkpoint");
    expect(JSON.parse((await basemodel(["schema"])).stdout)).toEqual(JSON.parse(readFileSync("schema/base-model-item.schema.json", "utf8")));
    expect(JSON.parse((await basemodel(["schema", "--rules", "v1.0.0-current", "--prefix", "svc"])).stdout).definitions.properties.required).toContain("svc:split_spec");
  });
});

describe(".pre-commit-hooks.yaml", () => {
  it("has a hook for the fair-ci profile, and each hook's entry runs: pre-commit appends the staged files", async () => {
    const hooks = parse(readFileSync(join(ROOT, ".pre-commit-hooks.yaml"), "utf8")) as { id: string; entry: string }[];
    expect(hooks.map((hook) => hook.id)).toEqual(["basemodel-validate", "basemodel-fair-ci"]);
    const [validate, fairCi] = hooks.map(({ entry }) => entry.split(" "));
    expect([validate![0], fairCi![0]]).toEqual(["basemodel", "basemodel"]);
    const run = async (hook: string[], file: string) => (await basemodel([...hook.slice(1), file])).code;
    // The specification's form of an item passes the first and fails the second, which holds it to today's rules.
    const specForm = `${RULES}/v1.0.0/weights-in-model.json`;
    expect([await run(validate!, specForm), await run(fairCi!, specForm)]).toEqual([0, 1]);
    expect([await run(validate!, CURRENT), await run(fairCi!, CURRENT)]).toEqual([0, 0]);
    expect(await run(fairCi!, KEYWORD)).toBe(1);
  });

  it("each hook selects the files that may be items, and leaves out those a repository keeps for its tools, as a walk does", () => {
    const hooks = parse(readFileSync(join(ROOT, ".pre-commit-hooks.yaml"), "utf8")) as { files: string; exclude: string }[];
    // pre-commit selects a staged path when `files` is found in it and `exclude` is not (Python's re.search).
    const selected = (hook: { files: string; exclude: string }, path: string) => new RegExp(hook.files).test(path) && !new RegExp(hook.exclude).test(path);
    const items = ["models/unet/stac-item.json", "data/sample/stac-item.json", "catalogue/items.ndjson", "catalogue/items.jsonl", "my.package.json"];
    const tools = ["package.json", "web/package-lock.json", "tsconfig.json", "tsconfig.build.json", "jsconfig.json", "basemodel.config.json", "renovate.json", "schema/item.schema.json", ".vscode/settings.json", ".eslintrc.json", "items/.drafts/x.json", "node_modules/x/y.json"];
    for (const hook of hooks) {
      expect(items.filter((path) => !selected(hook, path))).toEqual([]);
      expect(tools.filter((path) => selected(hook, path))).toEqual([]);
    }
  });
});
