import { spawn } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROFILE_NAMES, RULES_OPTIONS } from "../../src/validator/item/rule-sets.js";
import { STRING_GIVEN_5, unknownMember } from "../support/wording.js";
import { basemodel, BIN, ROOT, scratchDir } from "./helpers.js";

const packageVersion = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

describe("basemodel: usage mistakes", () => {
  const mistakes: Array<[what: string, args: string[], message: string, pointer: string]> = [
    ["an unknown option", ["validate", "--no-such-flag", "x"], "error: unknown option '--no-such-flag'", "Run basemodel validate --help for usage."],
    ["a missing option argument", ["validate", "fixtures/valid", "--format"], "error: option '-f, --format <format>' argument missing", "Run basemodel validate --help for usage."],
    ["a bad option value", ["validate", "fixtures/valid", "--max-errors", "0"], "argument '0' is invalid. expected an integer of at least 1", "Run basemodel validate --help for usage."],
    ["an unknown output format", ["validate", "fixtures/valid", "-f", "xml"], "error: option '-f, --format <format>' argument 'xml' is invalid. Allowed choices are text, json, github, sarif, junit.", "Run basemodel validate --help for usage."],
    ["a missing required option", ["import", "some.osm.pbf"], "error: required option '--db <path>' not specified", "Run basemodel import --help for usage."],
    ["an unknown command", ["frobnicate"], "error: unknown command 'frobnicate'", "Run basemodel --help for usage."],
  ];

  it.each(mistakes)("%s: the error and one line pointing to --help, exit 2", async (_what, args, message, pointer) => {
    const run = await basemodel(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(message);
    expect(lines[1]).toBe(pointer);
  });
});

describe("basemodel: --version", () => {
  it.each([["-v"], ["-V"], ["--version"]])("%s prints the version and exits 0", async (flag) => {
    const run = await basemodel([flag]);
    expect(run).toEqual({ code: 0, stdout: `${packageVersion}\n`, stderr: "" });
  });

  it("help lists -v, --version", async () => {
    expect((await basemodel(["--help"])).stdout).toMatch(/^ {2}-v, --version /m);
  });
});

describe("basemodel validate: a bad configuration file", () => {
  it("words a wrong type and an unknown member as every JSON input does", async () => {
    const project = scratchDir();
    copyFileSync(join(ROOT, "fixtures/valid/minimal.json"), join(project, "item.json"));
    const config = join(project, "basemodel.config.json");
    writeFileSync(config, JSON.stringify({ ignore: [5], strcit: true }));
    const run = await basemodel(["validate", "item.json"], { cwd: project });
    expect(run.code).toBe(2);
    const [unknown, wrongType] = run.stderr.trimEnd().split("\n");
    expect(unknown).toContain(`basemodel: ${config}: ${unknownMember("strcit", "the configuration")}`);
    expect(wrongType).toBe(`basemodel: ${config}: ignore[0] ${STRING_GIVEN_5}`);
  });

  it("is checked by a schema that takes the rule sets and profiles the validator has", () => {
    const { properties } = JSON.parse(readFileSync(join(ROOT, "schema/inputs/config.schema.json"), "utf8")) as { properties: Record<string, { enum?: unknown[] }> };
    expect(properties.rules!.enum).toEqual(RULES_OPTIONS);
    expect(properties.profile!.enum).toEqual(PROFILE_NAMES);
  });

  it("lists every problem at once, one line each, and exits 2", async () => {
    const project = scratchDir();
    copyFileSync(join(ROOT, "fixtures/warning/hyperparameters-spec.json"), join(project, "item.json"));
    const config = join(project, "basemodel.config.json");
    writeFileSync(config, JSON.stringify({ strcit: true, maxErrors: "ten", quiet: "yes", toString: 1, format: "json" }));
    const run = await basemodel(["validate", "item.json"], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const KNOWN = "prefix, schemaUrl, strict, stac, rules, fairChecks, profile, schemaMap, maxErrors, format, quiet and ignore";
    expect(run.stderr.trimEnd().split("\n")).toEqual([
      `basemodel: ${config}: unknown member "strcit" in the configuration; the known members are ${KNOWN} (did you mean "strict"?)`,
      `basemodel: ${config}: unknown member "toString" in the configuration; the known members are ${KNOWN}`,
      `basemodel: ${config}: maxErrors must be an integer; found a string ("ten")`,
      `basemodel: ${config}: quiet must be a boolean; found a string ("yes")`,
    ]);
  });
});

describe("basemodel: a reader that stops early (| head)", () => {
  /** Runs the CLI with its standard output closed after the first chunk, as `| head -1` does. */
  function readFirstChunk(args: string[]): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
      child.stdout.once("data", () => child.stdout.destroy());
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stderr }));
    });
  }

  it.each([["replicate", "--help"], ["validate", "--help"], ["--help"]])("%s %s stops quietly with exit 0, no stack trace", async (...args) => {
    expect(await readFirstChunk(args.filter((arg) => arg !== undefined))).toEqual({ code: 0, stderr: "" });
  });

  it("validate of many files keeps its exit code and prints no EPIPE", async () => {
    const run = await readFirstChunk(["validate", "fixtures/invalid", "--format", "json"]);
    expect(run.stderr).not.toContain("EPIPE");
    expect(run.code).toBe(1);
  });
});
