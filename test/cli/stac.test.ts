/**
 * `basemodel validate --stac`, the real CLI in a child process: the flag, the configuration
 * setting, positions and the JSON report; and without --stac, none of the compiled STAC schemas
 * is ever loaded.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { basemodel, ROOT, scratchDir } from "./helpers.js";

const BANDS = "fixtures/stac-invalid/mlm-bands-without-raster-bands.json";
const REALISTIC = "fixtures/valid/realistic-segmentation.json";

describe("basemodel validate --stac", () => {
  it("reports a STAC fault at file:line:col with the rule, exit 1; the base model rules alone pass it, exit 0", async () => {
    const run = await basemodel(["validate", "--stac", "--no-color", BANDS]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `${BANDS}:487:5  error  mlm-bands  assets.model has the role "mlm:model" but no raster:bands; properties.mlm:input names bands ("red", "green", "blue", "dsm", "mask"), which every model asset must describe`,
    );
    expect(run.stdout).toContain('> 487 |     "model": {');
    expect((await basemodel(["validate", BANDS])).code).toBe(0);
    expect((await basemodel(["validate", "--stac", REALISTIC])).code).toBe(0);
  });

  it("takes stac from the configuration file; --no-stac overrides it; a wrong value is a configuration error", async () => {
    const dir = scratchDir();
    const file = join(ROOT, BANDS);
    writeFileSync(join(dir, "basemodel.config.json"), JSON.stringify({ stac: true }));
    expect((await basemodel(["validate", file], { cwd: dir })).code).toBe(1);
    expect((await basemodel(["validate", "--no-stac", file], { cwd: dir })).code).toBe(0);
    writeFileSync(join(dir, "basemodel.config.json"), JSON.stringify({ stac: "yes" }));
    const bad = await basemodel(["validate", file], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('stac must be a boolean; found a string ("yes")');
  });

  it("says in the JSON report that STAC was checked, and which official schema each finding comes from", async () => {
    const run = await basemodel(["validate", "--stac", "--format", "json", "fixtures/stac-invalid/stac-extension-accelerator-case.json"]);
    const report = JSON.parse(run.stdout);
    expect(report.settings.stac).toBe(true);
    expect(report.files[0].items[0].errors).toEqual([
      expect.objectContaining({ rule: "stac-extension", path: "/properties/mlm:accelerator", schema: "https://stac-extensions.github.io/mlm/v1.5.1/schema.json", line: 61, column: 24 }),
    ]);
  });

  it("loads the compiled STAC schemas only with --stac, and for an item that passes only the verdict modules", async () => {
    const env = { NODE_DEBUG: "module" };
    const without = await basemodel(["validate", REALISTIC], { env });
    const withStac = await basemodel(["validate", "--stac", REALISTIC], { env });
    expect(without.stderr).not.toContain("generated/stac/");
    expect(withStac.stderr).toContain("generated/stac/verdict/schemas.stacspec.org/v1.1.0/item-spec/json-schema/item.js");
    expect(withStac.stderr).not.toContain("generated/stac/explain/");
  });
});
