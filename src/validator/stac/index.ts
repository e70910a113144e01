/**
 * --stac: besides the base model rules, the item is checked against the official schema of core
 * STAC for its stac_version and of every extension its stac_extensions lists, offline, from the
 * schemas bundled in schema/stac/ and compiled ahead of time (scripts/build-stac.mjs).
 *
 *   registry.ts       URL -> compiled schema, loaded on first use
 *   explain.ts        a schema's failures -> each broken rule once, in words
 *   cross-field.ts    our messages for the rules the schemas state across members
 *   extension-urls.ts what each stac_extensions entry names
 *   prefixes.ts       extension members used without the extension
 *   runtime.ts        schemas the user maps or downloads, compiled when first named
 *                     (sources.ts reads them, expand.ts prepares them as the build does)
 *   fetch.ts          downloads them into the cache (cache.ts), before validation
 */
import type { EngineSettings } from "../item/settings.js";
import type { Issue, RuleId } from "../../diagnostics/issue.js";
import { issue } from "../../diagnostics/messages.js";
import { claimNearMisses, nearMissPointer, NO_MEMBERS } from "../../diagnostics/near-miss.js";
import { closest } from "../../diagnostics/suggest.js";
import { crossFieldRules, isObject, type JsonObject } from "./cross-field.js";
import { explainFailures, type Finding, type FindingKind, type Source } from "./explain.js";
import { checkExtensionUrls, compareVersions } from "./extension-urls.js";
import { undeclaredExtensions } from "./prefixes.js";
import { bundledCheck, bundledSchema, bundledSchemas, coreSchema, coreSchemas, loadBundledSchemas, type BundledSchema, type SchemaFailure, type SchemaToCheck } from "./registry.js";
import { RuntimeSchemas } from "./runtime.js";
import { SchemaSources } from "./sources.js";

const CORE_VERSIONS = coreSchemas.map((schema) => schema.version).sort(compareVersions);
const NEWEST_CORE = CORE_VERSIONS.at(-1)!;

/** The core schema for the item's stac_version, and an issue when that version has none. */
function coreFor(item: JsonObject | undefined): { schema: BundledSchema; issue?: Issue } {
  const version = item?.stac_version;
  const exact = typeof version === "string" ? coreSchema(version) : undefined;
  if (exact !== undefined) return { schema: exact };
  // Missing or not a string: the core schema says so. Another version is checked as the one it
  // most likely means, or the newest.
  if (typeof version !== "string") return { schema: coreSchema(NEWEST_CORE)! };
  const near = closest(version, CORE_VERSIONS, 2);
  return {
    schema: coreSchema(near ?? NEWEST_CORE)!,
    issue: issue("stac-version", "/stac_version", `stac_version must be one of ${CORE_VERSIONS.map((v) => JSON.stringify(v)).join(", ")}, the STAC versions basemodel checks; found ${JSON.stringify(version)}`, {
      expected: CORE_VERSIONS,
      actual: version,
      ...(near !== undefined && { suggestion: `did you mean ${JSON.stringify(near)}?` }),
    }),
  };
}

/**
 * Loads the compiled schemas `stac: true` checks these items against (the core schema of each
 * one's stac_version, and each bundled extension it lists), or every bundled schema without
 * items. Node loads them when first needed; where basemodel cannot load them as it needs them (a
 * browser), validating with `stac: true` needs this first.
 */
export function loadStac(items?: Iterable<unknown>): Promise<void> {
  if (items === undefined) return loadBundledSchemas(bundledSchemas);
  const schemas = new Set<BundledSchema>();
  for (const value of items) {
    const item = isObject(value) ? value : undefined;
    schemas.add(coreFor(item).schema);
    const listed = item?.stac_extensions;
    if (!Array.isArray(listed)) continue;
    for (const url of listed) {
      const schema = typeof url === "string" ? bundledSchema(url) : undefined;
      if (schema !== undefined) schemas.add(schema);
    }
  }
  return loadBundledSchemas(schemas);
}

/** Every finding of one bundled schema: the cross-field rules' first, then the explained rest. */
function schemaFindings(value: unknown, schema: SchemaToCheck, ignore: (failure: SchemaFailure) => boolean): Finding[] {
  if (schema.passes(value)) return [];
  const { check } = schema;
  if (check !== schema.passes && check(value)) return [];
  let failures = (check.errors ?? []).filter((failure) => !ignore(failure));
  const findings: Finding[] = [];
  if (isObject(value)) {
    for (const rule of crossFieldRules) {
      if (rule.family !== schema.family) continue;
      const applied = rule.apply(value, failures, check);
      if (applied === undefined) continue;
      findings.push(...applied.issues.map((issue) => ({ issue, kind: "other" as const })));
      failures = failures.filter((failure) => !applied.explained.includes(failure));
    }
  }
  const source: Source = { rule: schema.role === "core" ? "stac-core" : "stac-extension", url: schema.url };
  return [...findings, ...explainFailures(failures, value, check, source)];
}

/** What the base model rules report, as finding kinds: a STAC finding of the same kind at the same place says it again. */
const BASE_KINDS: Partial<Record<RuleId, FindingKind>> = {
  required: "required",
  type: "type",
  const: "value",
  enum: "value",
  "min-length": "value",
  "exclusive-range": "value",
  "min-items": "size",
  "unknown-prefixed-property": "member",
};

/** The mapped and downloaded schemas of each validator's settings, compiled once each. */
const runtimeBySettings = new WeakMap<Readonly<EngineSettings>, RuntimeSchemas>();

function runtimeFor(settings: Readonly<EngineSettings>): RuntimeSchemas | undefined {
  if (settings.schemaCache === undefined && Object.keys(settings.schemaMap).length === 0) return undefined;
  let runtime = runtimeBySettings.get(settings);
  if (runtime === undefined) {
    runtime = new RuntimeSchemas(new SchemaSources(settings.schemaMap, settings.schemaCache));
    runtimeBySettings.set(settings, runtime);
  }
  return runtime;
}

/**
 * The STAC issues of one item, after the base model rules found `base`: each broken rule once,
 * none that repeats what a base model rule said at the same place.
 */
export function stacIssues(value: unknown, base: readonly Issue[], settings: Readonly<EngineSettings>): Issue[] {
  const item = isObject(value) ? value : undefined;
  const core = coreFor(item);
  const findings: Finding[] = core.issue ? [{ issue: core.issue, kind: "other" }] : [];
  findings.push(...schemaFindings(value, bundledCheck(core.schema), (failure) => core.issue !== undefined && failure.instancePath === "/stac_version"));
  if (item !== undefined) {
    const extensions = checkExtensionUrls(item.stac_extensions, settings.schemaUrl, runtimeFor(settings));
    findings.push(...extensions.issues.map((issue) => ({ issue, kind: "other" as const })));
    for (const schema of extensions.schemas) findings.push(...schemaFindings(item, schema, () => false));
    findings.push(...undeclaredExtensions(item).map((issue) => ({ issue, kind: "other" as const })));
  }
  const said = new Set(base.map((issue) => `${BASE_KINDS[issue.rule]}\n${issue.path}`));
  // A member the base rules took for a misspelling (mlm:framwork) is not also a member MLM does not define.
  for (const issue of base) {
    const nearMiss = nearMissPointer(issue);
    if (nearMiss !== undefined) said.add(`member\n${nearMiss}`);
  }
  const seen = new Set<string>();
  const issues: Issue[] = [];
  const missing: Issue[] = [];
  for (const { issue, kind } of findings) {
    // One finding of a kind at one place: GeoJSON's Feature and core STAC both list the geometry types.
    const key = kind === "other" ? `${issue.path}\n${issue.message}` : `${kind}\n${issue.path}`;
    if (said.has(`${kind}\n${issue.path}`) || seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
    if (kind === "required") missing.push(issue);
  }
  // The STAC schemas define too many members to list: every member is a candidate near miss.
  if (missing.length > 0) claimNearMisses(missing, value, () => NO_MEMBERS);
  return issues;
}
