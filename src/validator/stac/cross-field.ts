/**
 * Rules that the official schemas state across several members with if/then/anyOf, which
 * validators then report as noise ("must match "then" schema", "'collection' is a required
 * property"). Each rule has its own message, written beside it. A rule speaks only when the
 * schema fails on what it states, and the failures it explains are not explained again.
 *
 * MLM rules are tied to the named part of the schema that states them ("#/$defs/AnyBandsRef"):
 * each MLM version states them a little differently, and the rule follows whichever version the
 * item declares. Core rules are about the item's own members, the same in STAC 1.0.0 and 1.1.0.
 */
import type { Issue, RuleId } from "../../diagnostics/issue.js";
import { issue, quoteList } from "../../diagnostics/messages.js";
import { describePointer, joinPointer } from "../../diagnostics/pointer.js";
import type { CompiledSchema, SchemaFailure } from "./registry.js";

export type JsonObject = Record<string, unknown>;

export interface Explained {
  issues: Issue[];
  /** The schema failures these issues explain. */
  explained: readonly SchemaFailure[];
}

export interface CrossFieldRule {
  id: RuleId;
  /** The schemas whose failures the rule explains: "core", or an extension ("mlm"). */
  family: string;
  /** The rule's issues for an item that failed the schema, or undefined when the rule is not what failed. */
  apply(item: JsonObject, failures: readonly SchemaFailure[], schema: CompiledSchema): Explained | undefined;
}

export const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

const within = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

/** The failures of the part of the schema a $ref named `part` was expanded into. */
function partFailures(failures: readonly SchemaFailure[], schema: CompiledSchema, part: string): SchemaFailure[] {
  const places = Object.entries(schema.sites)
    .filter(([, name]) => name === part)
    .map(([path]) => path);
  return failures.filter((failure) => places.some((place) => within(failure.schemaPath, place)));
}

/** The asset a failure is about ("/assets/weights"), when it is about one. */
const assetOf = (failure: SchemaFailure) => /^\/assets\/[^/]+/.exec(failure.instancePath)?.[0];

const assetsOf = (item: JsonObject): [string, JsonObject][] =>
  isObject(item.assets) ? Object.entries(item.assets).filter((entry): entry is [string, JsonObject] => isObject(entry[1])) : [];

const hasRole = (asset: JsonObject, role: string) => Array.isArray(asset.roles) && asset.roles.includes(role);

const assetPath = (key: string) => joinPointer("/assets", key);

/**
 * A rule about single assets: the failures of its part, grouped by the asset they are about, and
 * for each asset the rule's issue (with the failures it explains) or undefined to leave them be.
 */
function perAsset(
  item: JsonObject,
  failures: readonly SchemaFailure[],
  schema: CompiledSchema,
  part: string,
  explain: (asset: JsonObject, path: string, failures: SchemaFailure[]) => Explained | undefined,
): Explained | undefined {
  const assets = new Map(assetsOf(item).map(([key, asset]) => [assetPath(key), asset]));
  const groups = new Map<string, SchemaFailure[]>();
  for (const failure of partFailures(failures, schema, part)) {
    const asset = assetOf(failure) ?? "";
    groups.set(asset, [...(groups.get(asset) ?? []), failure]);
  }
  const issues: Issue[] = [];
  const explained: SchemaFailure[] = [];
  for (const [path, list] of groups) {
    const asset = assets.get(path);
    const found = asset === undefined ? undefined : explain(asset, path, list);
    issues.push(...(found?.issues ?? []));
    explained.push(...(found?.explained ?? []));
  }
  return issues.length === 0 ? undefined : { issues, explained };
}

const MODEL_ROLE = "mlm:model";

const mlmModelAsset: CrossFieldRule = {
  id: "mlm-model-asset",
  family: "mlm",
  apply(item, failures, schema) {
    const mine = partFailures(failures, schema, "#/$defs/AssetModelRoleMinimumOneDefinition");
    if (mine.length === 0) return undefined;
    const likely = assetsOf(item).find(([, asset]) => "mlm:artifact_type" in asset)?.[0];
    return {
      issues: [
        issue(
          "mlm-model-asset",
          "/assets",
          `no asset has the role "${MODEL_ROLE}"; MLM needs the model itself (its weights or program) as an asset whose roles include "${MODEL_ROLE}"`,
          {
            expected: `an asset with the role "${MODEL_ROLE}"`,
            ...(likely !== undefined && { suggestion: `add "${MODEL_ROLE}" to the roles of ${describePointer(assetPath(likely))}` }),
          },
        ),
      ],
      explained: mine,
    };
  },
};

const mlmArtifactType: CrossFieldRule = {
  id: "mlm-artifact-type",
  family: "mlm",
  apply: (item, failures, schema) =>
    perAsset(item, failures, schema, "#/$defs/AssetModelRequiredProperties", (asset, path, list) => {
      const where = describePointer(path);
      const model = hasRole(asset, MODEL_ROLE);
      // With both or neither, the artifact type is there but broken: its own message says how.
      if (model === "mlm:artifact_type" in asset) return undefined;
      const at = joinPointer(path, "mlm:artifact_type");
      return {
        issues: [
          model
            ? issue("mlm-artifact-type", at, `${where} has the role "${MODEL_ROLE}" but no mlm:artifact_type; say how the model file was saved, e.g. "torch.save" or "tf.keras.Model.save"`, {
                expected: "mlm:artifact_type",
              })
            : issue("mlm-artifact-type", at, `${where} has mlm:artifact_type but not the role "${MODEL_ROLE}"; only model assets carry an artifact type`, {
                actual: asset["mlm:artifact_type"],
                suggestion: `add "${MODEL_ROLE}" to the roles of ${where}, or remove its mlm:artifact_type`,
              }),
        ],
        explained: list.filter((failure) => failure.keyword === "required" || failure.keyword === "not"),
      };
    }),
};

const mlmEntrypointRole: CrossFieldRule = {
  id: "mlm-entrypoint-role",
  family: "mlm",
  apply: (item, failures, schema) =>
    perAsset(item, failures, schema, "#/$defs/AssetCodeRoleWithEntrypoint", (asset, path, list) => {
      if (!("mlm:entrypoint" in asset) || hasRole(asset, "code")) return undefined;
      const where = describePointer(path);
      return {
        issues: [
          issue("mlm-entrypoint-role", joinPointer(path, "roles"), `${where} has mlm:entrypoint but not the role "code"; an entry point belongs to the asset that holds the code`, {
            expected: 'roles including "code"',
            suggestion: `add "code" to the roles of ${where}`,
          }),
        ],
        explained: list,
      };
    }),
};

/** The band names an MLM input or output lists (strings, or objects with a name). */
function bandNames(entries: unknown): string[] {
  if (!Array.isArray(entries)) return [];
  return entries.map((band) => (typeof band === "string" ? band : isObject(band) && typeof band.name === "string" ? band.name : "?"));
}

const declares = (item: JsonObject, extension: RegExp) => Array.isArray(item.stac_extensions) && item.stac_extensions.some((url) => typeof url === "string" && extension.test(url));
const RASTER_V1 = /^https:\/\/stac-extensions\.github\.io\/raster\/v1\.\d+\.\d+\/schema\.json$/;
const EO_V1 = /^https:\/\/stac-extensions\.github\.io\/eo\/v1\.\d+\.\d+\/schema\.json$/;

const mlmBands: CrossFieldRule = {
  id: "mlm-bands",
  family: "mlm",
  apply(item, failures, schema) {
    const mine = partFailures(failures, schema, "#/$defs/AnyBandsRef");
    if (mine.length === 0) return undefined;
    const properties = isObject(item.properties) ? item.properties : {};
    const naming = (["mlm:input", "mlm:output"] as const).filter((member) => Array.isArray(properties[member]) && properties[member].some((entry) => isObject(entry) && bandNames(entry.bands).length > 0));
    const names = [...new Set(naming.flatMap((member) => (properties[member] as unknown[]).flatMap((entry) => (isObject(entry) ? bandNames(entry.bands) : []))))];
    const bands = `${naming.map((member) => `properties.${member}`).join(" and ")} name${naming.length > 1 ? "" : "s"} bands (${quoteList(names.slice(0, 8))}${names.length > 8 ? ", …" : ""})`;
    const models = assetsOf(item).filter(([, asset]) => hasRole(asset, MODEL_ROLE));
    const describedIn = declares(item, RASTER_V1) ? "raster:bands" : declares(item, EO_V1) ? "eo:bands" : undefined;
    const issues: Issue[] = [];
    if (describedIn === undefined) {
      issues.push(
        issue("mlm-bands", "/stac_extensions", `${bands}, but no band description is declared: MLM wants the raster extension (raster:bands on each model asset), the eo extension (eo:bands), or STAC 1.1 properties.bands`, {
          expected: "raster or eo extension v1, or STAC 1.1 bands",
          suggestion: 'add "https://stac-extensions.github.io/raster/v1.1.0/schema.json" to stac_extensions and raster:bands to each model asset',
        }),
      );
    } else {
      for (const [key, asset] of models) {
        const described = asset[describedIn];
        const where = describePointer(assetPath(key));
        if (!Array.isArray(described) || described.length === 0) {
          issues.push(
            issue("mlm-bands", joinPointer(assetPath(key), describedIn), `${where} has the role "${MODEL_ROLE}" but no ${describedIn}; ${bands}, which every model asset must describe`, {
              expected: `${describedIn} with a name for each band`,
            }),
          );
        } else if (describedIn === "raster:bands") {
          described.forEach((band, index) => {
            if (!isObject(band) || typeof band.name !== "string" || band.name === "") {
              const at = joinPointer(joinPointer(assetPath(key), describedIn), index);
              issues.push(issue("mlm-bands", at, `${describePointer(at)} has no name; MLM matches the bands of its inputs to raster:bands by name`, { expected: "a band name" }));
            }
          });
        }
      }
    }
    return issues.length === 0 ? undefined : { issues, explained: mine };
  },
};

const stacLinks: CrossFieldRule = {
  id: "stac-links",
  family: "core",
  apply(item, failures) {
    if ("links" in item) return undefined;
    return {
      issues: [issue("stac-links", "/links", `"links" is missing from the item; a STAC item lists its links, [] when it has none`, { expected: "an array of links" })],
      // Without links, the schema's "a link to a collection needs a collection member" asks for one too.
      explained: failures.filter((failure) => failure.instancePath === "" && failure.keyword === "required" && ["links", "collection"].includes(String(failure.params.missingProperty))),
    };
  },
};

const stacGeometryBbox: CrossFieldRule = {
  id: "stac-geometry-bbox",
  family: "core",
  apply(item, failures) {
    if (item.geometry !== null || !("bbox" in item)) return undefined;
    return {
      issues: [
        issue("stac-geometry-bbox", "/bbox", "the item has a bbox but its geometry is null; an item without a geometry has no bbox", {
          suggestion: "remove bbox, or give the item its geometry",
        }),
      ],
      explained: failures.filter(
        (failure) => within(failure.instancePath, "/geometry") || within(failure.instancePath, "/bbox") || (failure.instancePath === "" && failure.keyword === "oneOf"),
      ),
    };
  },
};

const RANGE = ["start_datetime", "end_datetime"];

const stacDatetime: CrossFieldRule = {
  id: "stac-datetime",
  family: "core",
  apply(item, failures) {
    const properties = item.properties;
    if (!isObject(properties) || properties.datetime !== null) return undefined;
    const missing = RANGE.filter((member) => !(member in properties));
    if (missing.length === 0) return undefined;
    return {
      issues: [
        issue("stac-datetime", "/properties/datetime", `properties.datetime is null, so properties must give the time range in start_datetime and end_datetime; missing: ${quoteList(missing)}`, {
          expected: "a date and time, or null with start_datetime and end_datetime",
          actual: null,
        }),
      ],
      explained: failures.filter(
        (failure) =>
          within(failure.instancePath, "/properties/datetime") ||
          (failure.instancePath === "/properties" && ["required", "dependencies"].includes(failure.keyword) && RANGE.includes(String(failure.params.missingProperty))) ||
          (failure.instancePath === "/properties" && failure.keyword === "anyOf"),
      ),
    };
  },
};

export const crossFieldRules: readonly CrossFieldRule[] = [stacLinks, stacGeometryBbox, stacDatetime, mlmModelAsset, mlmArtifactType, mlmEntrypointRole, mlmBands];
