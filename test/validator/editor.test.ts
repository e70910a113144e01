/**
 * Editors: the schema `basemodel schema` prints is what VS Code's `json.schemas` setting points to.
 * Checked with Microsoft's vscode-json-languageservice, the engine of VS Code's JSON support: a
 * broken item gets its diagnostics at the offending text, and a hover shows the member's
 * description. Every member of every rule set's schema has one.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getLanguageService, TextDocument, type Hover } from "vscode-json-languageservice";
// @ts-expect-error: a build script in plain JavaScript, without declarations
import { describedAs, schemaMembers } from "../../scripts/schema-members.mjs";
import { ROOT } from "../cli/helpers.js";

const RULE_SETS = ["v1.0.0", "v1.0.0-current", "v1.1.0"];

function printedSchema(ruleSet: string): Record<string, unknown> {
  const run = spawnSync(process.execPath, [join(ROOT, "bin/basemodel.js"), "schema", "--rules", ruleSet], { encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

function editorFor(schema: Record<string, unknown>) {
  const service = getLanguageService({});
  service.configure({ validate: true, allowComments: false, schemas: [{ uri: "https://example.test/base-model.schema.json", fileMatch: ["*.json"], schema }] });
  const open = (text: string) => {
    const document = TextDocument.create("file:///catalogue/item.json", "json", 1, text);
    return { document, json: service.parseJSONDocument(document) };
  };
  return {
    diagnostics: async (text: string) => {
      const { document, json } = open(text);
      return service.doValidation(document, json);
    },
    hover: async (text: string, at: string): Promise<Hover | null> => {
      const { document, json } = open(text);
      return service.doHover(document, document.positionAt(text.indexOf(at) + 1), json);
    },
  };
}

/** A hover's text, however the service shapes it (markup, a marked string, or a list of them). */
function hoverText(hover: Hover | null): string {
  const parts: Array<string | { value: string }> = hover === null ? [] : Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  return parts.map((part) => (typeof part === "string" ? part : part.value)).join("\n");
}

describe("the schema in an editor", () => {
  it.each(RULE_SETS)("every member of the %s schema has a description to show on hover", (ruleSet) => {
    const schema = printedSchema(ruleSet);
    const members = [...(schemaMembers(schema) as Iterable<[string, Record<string, unknown>, Record<string, unknown>]>)];
    expect(members.length).toBeGreaterThan(40);
    expect(members.filter(([, member, resolved]) => describedAs(member, resolved) === undefined).map(([path]) => path)).toEqual([]);
  });

  it("an enum's markdownDescription lists its values", () => {
    const schema = printedSchema("v1.0.0") as { definitions: { properties: { properties: Record<string, { markdownDescription?: string }> } } };
    expect(schema.definitions.properties.properties["mlm:framework"]!.markdownDescription).toMatch(/One of: `PyTorch`, `TensorFlow`\.$/);
  });

  it("a broken item gets diagnostics at the offending text, as `basemodel validate` places them", async () => {
    const editor = editorFor(printedSchema("v1.0.0"));
    const text = readFileSync(join(ROOT, "fixtures/invalid/enum-artifact-type.json"), "utf8");
    const diagnostics = await editor.diagnostics(text);
    expect(diagnostics).toHaveLength(1);
    // basemodel validate: 82:28, 1-based; the language service counts from 0.
    expect(diagnostics[0]!.range.start).toEqual({ line: 81, character: 27 });
    expect(diagnostics[0]!.message).toMatch(/torch\.save/);
    const wrongType = text.replace('"mlm:pretrained": true', '"mlm:pretrained": "no"');
    const typeProblem = (await editor.diagnostics(wrongType)).find((diagnostic) => /boolean/i.test(String(diagnostic.message)));
    expect(typeProblem!.range.start.line).toBe(wrongType.slice(0, wrongType.indexOf('"no"')).split("\n").length - 1);
  });

  it("a hover on a member shows its description", async () => {
    const editor = editorFor(printedSchema("v1.0.0"));
    const text = readFileSync(join(ROOT, "fixtures/valid/minimal.json"), "utf8");
    expect(hoverText(await editor.hover(text, '"mlm:framework"'))).toContain("The framework the model was built with");
    expect(hoverText(await editor.hover(text, '"default_ratio"'))).toContain("greater than 0 and less than 1");
  });
});
