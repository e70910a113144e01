/**
 * An object that was never meant to be a base model item (a fAIr dataset item, a STAC
 * Collection, a package.json) gets one issue saying what it looks like, instead of an error for
 * each of the two dozen members it lacks. Asked only of objects that fail the base model rules.
 */
import type { Issue } from "../../diagnostics/issue.js";
import { issue, quoteList, schemaUrlNearMiss } from "../../diagnostics/messages.js";
import type { MessageContext } from "./schema-issues.js";

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/** fAIr's dataset items list their own schema, e.g. https://hotosm.github.io/fAIr-models/schemas/v1.0.0/dataset/schema.json. */
const DATASET_SCHEMA = /\/dataset\/schema\.json$/;

const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : []);

/** The dataset schema an object's stac_extensions lists, if any: what makes it look like a fAIr dataset item. */
export function listedDatasetSchema(value: unknown): string | undefined {
  return isObject(value) ? stringsOf(value.stac_extensions).find((url) => DATASET_SCHEMA.test(url)) : undefined;
}

/** Whether an object has a member `isModelMember` takes for a model's. */
function namesModelMembers(value: unknown, isModelMember: (key: string) => boolean): boolean {
  return isObject(value) && Object.keys(value).some(isModelMember);
}

/**
 * Whether an object shows any sign of being meant as a base model item: it lists the schema
 * identifier (or a near miss of it), or it has an mlm: member or one of the service's own
 * (fair:metrics_spec, fair:split_spec) at its top, in its properties, in its assets or in an
 * asset. Such an object gets every error in detail, however many members it lacks. A dataset
 * item shares fair: members with a model under some rule sets (fair:source_imagery in v1.1.0):
 * only an mlm: member makes one that lists the dataset schema a model.
 */
function meantAsItem(item: JsonObject, context: MessageContext): boolean {
  // Every item that lists the identifier (all of fAIr's, warnings and all) leaves here.
  if (Array.isArray(item.stac_extensions) && item.stac_extensions.includes(context.schemaUrl)) return true;
  if (schemaUrlNearMiss(stringsOf(item.stac_extensions), context.schemaUrl) !== undefined) return true;
  const dataset = listedDatasetSchema(item) !== undefined;
  const isModelMember = (key: string) => key.startsWith("mlm:") || (!dataset && context.definedPrefixed.includes(key));
  if (namesModelMembers(item, isModelMember) || namesModelMembers(item.properties, isModelMember) || namesModelMembers(item.assets, isModelMember)) return true;
  return isObject(item.assets) && Object.values(item.assets).some((asset) => namesModelMembers(asset, isModelMember));
}

/** What the object looks like, in a few words. */
function lookalike(item: JsonObject, context: MessageContext): string {
  const { type } = item;
  if (type === "FeatureCollection" && Array.isArray(item.features)) {
    const count = item.features.length;
    const features = `${count} feature${count === 1 ? "" : "s"}`;
    const items = item.features.filter((feature) => isObject(feature) && meantAsItem(feature, context)).length;
    return items === 0 ? `a GeoJSON FeatureCollection of ${features}, none of them a base model item` : `a GeoJSON FeatureCollection of ${features}`;
  }
  const dataset = listedDatasetSchema(item);
  if (dataset !== undefined) return `a fAIr dataset item (its stac_extensions lists ${JSON.stringify(dataset)})`;
  if (type === "Collection") return "a STAC Collection";
  if (type === "Catalog") return "a STAC Catalog";
  if (type === "Feature") return typeof item.stac_version === "string" ? "a STAC Item that describes no model" : "a GeoJSON Feature";
  if (typeof item.$schema === "string") return "a JSON Schema";
  if (typeof item.name === "string" && (isObject(item.dependencies) || isObject(item.devDependencies) || isObject(item.scripts))) return "an npm package.json";
  const keys = Object.keys(item);
  if (keys.length === 0) return "an empty object";
  const more = keys.length > 3 ? ` and ${keys.length - 3} more` : "";
  return `an object with the member${keys.length === 1 ? "" : "s"} ${quoteList(keys.slice(0, 3))}${more}`;
}

/**
 * The one issue of an object that is not a base model item at all, or undefined when it may be
 * one (or is not an object: that is a type error). A GeoJSON FeatureCollection is never an item,
 * whatever its features are.
 */
export function notABaseModelItem(value: unknown, context: MessageContext): Issue | undefined {
  if (!isObject(value)) return undefined;
  const collection = value.type === "FeatureCollection" && Array.isArray(value.features);
  if (!collection && meantAsItem(value, context)) return undefined;
  const what = lookalike(value, context);
  // A dataset item is no mistaken model: what it is and what checks it are all there is to say.
  if (!collection && listedDatasetSchema(value) !== undefined) {
    return issue("not-a-base-model-item", "", `not a base model item: found ${what}`, {
      expected: "a base model item",
      actual: what,
      suggestion: "--fair-checks or --profile fair-ci checks it by fAIr's dataset rules, as fAIr's CI does; in the library, fairChecks: true",
    });
  }
  return issue(
    "not-a-base-model-item",
    "",
    `not a base model item: found ${what}; a base model item is a STAC Item whose stac_extensions lists ${JSON.stringify(context.schemaUrl)} and whose properties describe a model with mlm: members`,
    { expected: "a base model item", actual: what },
  );
}

/**
 * Whether a value is STAC at all, or GeoJSON that may hold STAC: an object whose type is
 * "Feature" or "FeatureCollection", or that has a stac_version (a Collection, a Catalog).
 */
export function isStacDocument(value: unknown): boolean {
  return isObject(value) && (value.type === "Feature" || value.type === "FeatureCollection" || "stac_version" in value);
}

/** Whether a value is a STAC Item (a Feature with a stac_version), whatever it describes. */
export function isStacItem(value: unknown): boolean {
  return isObject(value) && value.type === "Feature" && typeof value.stac_version === "string";
}

/** Whether these are the issues of something that is not a base model item at all. */
export function isNotAnItem(issues: readonly Issue[]): boolean {
  return issues.length === 1 && issues[0]!.rule === "not-a-base-model-item";
}
