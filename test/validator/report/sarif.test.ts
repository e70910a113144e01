import { readFileSync } from "node:fs";
import { resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { rules } from "../../../src/diagnostics/rules.js";
import { formatSarif } from "../../../src/validator/report/sarif.js";
import { brokenText, cleanText, fileReport, issueCount, mixedReport, runReport } from "./fixtures.js";
import { NO_COLOURS } from "../../../src/validator/report/paint.js";

const context = { paint: NO_COLOURS, quiet: false };
const packageVersion = (JSON.parse(readFileSync(resolve(__dirname, "../../../package.json"), "utf8")) as { version: string }).version;

interface Region {
  startLine: number;
  startColumn?: number;
  endLine?: number;
  endColumn?: number;
}
interface ArtifactLocation {
  uri: string;
  uriBaseId: string;
}
interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: Array<{ physicalLocation: { artifactLocation: ArtifactLocation; region: Region } }>;
  partialFingerprints: Record<string, string>;
}
interface RuleDescriptor {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  defaultConfiguration: { level: string };
  help: { text: string };
}
interface Notification {
  level: string;
  message: { text: string };
  locations: Array<{ physicalLocation: { artifactLocation: ArtifactLocation } }>;
}
interface SarifLog {
  $schema: string;
  version: string;
  runs: Array<{
    tool: { driver: { name: string; version: string; informationUri?: string; rules: RuleDescriptor[] } };
    invocations: Array<{ executionSuccessful: boolean; toolExecutionNotifications: Notification[] }>;
    columnKind: string;
    results: Result[];
  }>;
}

function sarif(report: ReturnType<typeof runReport>): SarifLog {
  const output = formatSarif(report, context);
  expect(output).toBe(`${JSON.stringify(JSON.parse(output), null, 2)}\n`);
  return JSON.parse(output) as SarifLog;
}

function onlyRun(log: SarifLog) {
  expect(log.runs).toHaveLength(1);
  return log.runs[0]!;
}

/** A URI reference code scanning resolves against the checkout: relative, "/"-separated, encoded. */
function expectRelativeUri(location: ArtifactLocation): void {
  expect(location.uriBaseId).toBe("%SRCROOT%");
  expect(location.uri).not.toMatch(/^\/|^[a-z][a-z0-9+.-]*:|^\.\//i);
  expect(location.uri).not.toContain("\\");
  expect(location.uri).not.toMatch(/[ #?]/);
}

describe("sarif format", () => {
  const mixed = mixedReport();
  const log = sarif(mixed);
  const run = onlyRun(log);

  it("is a SARIF 2.1.0 log naming the tool and its version", () => {
    expect(log.$schema).toBe("https://json.schemastore.org/sarif-2.1.0.json");
    expect(log.version).toBe("2.1.0");
    expect(run.tool.driver.name).toBe("basemodel");
    expect(run.tool.driver.version).toBe(packageVersion);
    expect(run.tool.driver).not.toHaveProperty("informationUri"); // package.json has no homepage
    expect(run.columnKind).toBe("utf16CodeUnits");
  });

  it("describes every rule of the catalogue", () => {
    const descriptors = run.tool.driver.rules;
    expect(descriptors.map((rule) => rule.id)).toEqual(rules.map((rule) => rule.id));
    for (const descriptor of descriptors) {
      expect(descriptor.shortDescription.text).not.toBe("");
      expect(descriptor.fullDescription.text.startsWith(descriptor.shortDescription.text)).toBe(true);
      expect(descriptor.help.text).not.toBe("");
      expect(["error", "warning"]).toContain(descriptor.defaultConfiguration.level);
    }
    const unknown = descriptors.find((rule) => rule.id === "unknown-prefixed-property")!;
    expect(unknown.name).toBe("UnknownPrefixedProperty");
    expect(unknown.defaultConfiguration.level).toBe("warning");
    const rule = rules.find((candidate) => candidate.id === "unknown-prefixed-property")!;
    expect(unknown.fullDescription.text).toBe(`${rule.summary} Applies to: ${rule.appliesTo}. Example: ${rule.example}`);
  });

  it("reports every issue as a result code scanning accepts", () => {
    expect(run.results).toHaveLength(issueCount(mixed));
    for (const result of run.results) {
      expect(run.tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
      expect(["error", "warning"]).toContain(result.level);
      expect(result.message.text).not.toBe("");
      const { artifactLocation, region } = result.locations[0]!.physicalLocation;
      expectRelativeUri(artifactLocation);
      expect(region.startLine).toBeGreaterThanOrEqual(1);
      if (region.startColumn !== undefined) expect(region.startColumn).toBeGreaterThanOrEqual(1);
      expect(result.partialFingerprints["basemodel/v1"]).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("gives the issue's region (end column exclusive, as in SARIF) and the suggestion", () => {
    const result = run.results.find((candidate) => candidate.ruleId === "enum")!;
    expect(result).toMatchObject({
      level: "error",
      message: { text: 'properties.mlm:framework must be one of "PyTorch", "TensorFlow"; found a string ("pytorch") (did you mean "PyTorch"?)' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: "models/unet/stac-item.json", uriBaseId: "%SRCROOT%" },
            region: { startLine: 18, startColumn: 26, endLine: 18, endColumn: 35 },
          },
        },
      ],
    });
  });

  it("tells results apart with fingerprints, NDJSON lines with the same issue included", () => {
    const fingerprints = run.results.map((result) => result.partialFingerprints["basemodel/v1"]);
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
  });

  it("keeps a result's fingerprint when lines are added above it", () => {
    const enumResult = (text: string) => onlyRun(sarif(runReport([fileReport("a.json", text)]))).results.find((result) => result.ruleId === "enum")!;
    const before = enumResult(brokenText);
    const after = enumResult(`\n\n${brokenText}`);
    expect(after.locations[0]!.physicalLocation.region.startLine).toBe(before.locations[0]!.physicalLocation.region.startLine + 2);
    expect(after.partialFingerprints).toEqual(before.partialFingerprints);
  });

  it("reports unreadable files as tool execution notifications", () => {
    const [invocation] = run.invocations;
    expect(invocation!.executionSuccessful).toBe(false);
    expect(invocation!.toolExecutionNotifications).toEqual([
      {
        level: "error",
        message: { text: "ENOENT: no such file or directory" },
        locations: [{ physicalLocation: { artifactLocation: { uri: "missing.json", uriBaseId: "%SRCROOT%" } } }],
      },
    ]);
    const clean = onlyRun(sarif(runReport([fileReport("clean.json", cleanText)])));
    expect(clean.invocations[0]).toEqual({ executionSuccessful: true, toolExecutionNotifications: [] });
    expect(clean.results).toEqual([]);
  });

  it("makes paths relative, with forward slashes and each segment percent-encoded", () => {
    const broken = fileReport("x", brokenText);
    const files = [resolve("models/abs/stac-item.json"), "./dir with space/a#b.json", "back\\slash.json"].map((file) => ({ ...broken, file }));
    const uris = onlyRun(sarif(runReport(files))).results.map((result) => result.locations[0]!.physicalLocation.artifactLocation.uri);
    // A backslash separates directories only on Windows; elsewhere it is part of the name.
    const backslash = sep === "\\" ? "back/slash.json" : "back%5Cslash.json";
    expect(new Set(uris)).toEqual(new Set(["models/abs/stac-item.json", "dir%20with%20space/a%23b.json", backslash]));
  });

  it("notes items whose issues --max-errors cut short", () => {
    const notifications = onlyRun(sarif(runReport([fileReport("a.json", brokenText, { maxErrors: 2 })]))).invocations[0]!.toolExecutionNotifications;
    expect(notifications).toEqual([
      {
        level: "warning",
        message: { text: "… and 3 more issues: 1 error, 2 warnings (raise --max-errors)" },
        locations: [{ physicalLocation: { artifactLocation: { uri: "a.json", uriBaseId: "%SRCROOT%" } } }],
      },
    ]);
  });
});
