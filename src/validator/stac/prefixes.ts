/**
 * A member named with an extension's prefix (mlm:, raster:, ...) while stac_extensions does not
 * list that extension: its schema is then never applied, and no STAC validator notices.
 */
import type { Issue } from "../../diagnostics/issue.js";
import { issue } from "../../diagnostics/messages.js";
import { describePointer, joinPointer } from "../../diagnostics/pointer.js";
import { isObject, type JsonObject } from "./cross-field.js";
import { familyOf, newestOf } from "./extension-urls.js";

/** Prefix -> extension, for the extensions basemodel bundles (the version extension has no prefix). */
const EXTENSION_OF_PREFIX: Readonly<Record<string, string>> = {
  mlm: "mlm",
  raster: "raster",
  file: "file",
  classification: "classification",
  processing: "processing",
  cube: "datacube",
  label: "label",
  eo: "eo",
  proj: "projection",
};

/** The objects whose members an extension adds to: the item, its properties, assets, links and bands. */
function places(item: JsonObject): [string, JsonObject][] {
  const found: [string, JsonObject][] = [["", item]];
  const add = (path: string, value: unknown) => {
    if (isObject(value)) found.push([path, value]);
  };
  const addBands = (path: string, owner: unknown) => {
    if (isObject(owner) && Array.isArray(owner.bands)) owner.bands.forEach((band, index) => add(joinPointer(joinPointer(path, "bands"), index), band));
  };
  add("/properties", item.properties);
  addBands("/properties", item.properties);
  if (isObject(item.assets)) {
    for (const [key, asset] of Object.entries(item.assets)) {
      add(joinPointer("/assets", key), asset);
      addBands(joinPointer("/assets", key), asset);
    }
  }
  if (Array.isArray(item.links)) item.links.forEach((link, index) => add(joinPointer("/links", index), link));
  return found;
}

/** One issue per extension whose prefix is used but whose schema stac_extensions does not list. */
export function undeclaredExtensions(item: JsonObject): Issue[] {
  const declared = new Set(Array.isArray(item.stac_extensions) ? item.stac_extensions.filter((url): url is string => typeof url === "string").map(familyOf) : []);
  const used = new Map<string, string[]>();
  for (const [path, object] of places(item)) {
    for (const key of Object.keys(object)) {
      // Most members have no prefix: the cheap test first, as every member of every item comes here.
      const colon = key.indexOf(":");
      if (colon <= 0) continue;
      const prefix = key.slice(0, colon);
      if (!Object.hasOwn(EXTENSION_OF_PREFIX, prefix)) continue;
      const extension = EXTENSION_OF_PREFIX[prefix]!;
      if (!declared.has(extension)) used.set(extension, [...(used.get(extension) ?? []), joinPointer(path, key)]);
    }
  }
  return [...used].map(([extension, paths]) => {
    const [first] = paths as [string];
    const more = paths.length > 1 ? ` and ${paths.length - 1} more member${paths.length > 2 ? "s" : ""}` : "";
    const url = newestOf(extension)?.url;
    return issue(
      "stac-extension-missing",
      first,
      `${describePointer(first)}${more} use${more ? "" : "s"} the ${extension} extension, which stac_extensions does not list, so its schema is not applied`,
      { expected: `the ${extension} extension in stac_extensions`, ...(url && { suggestion: `add "${url}" to stac_extensions` }) },
    );
  });
}
