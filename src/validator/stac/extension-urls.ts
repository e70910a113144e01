/**
 * What each entry of stac_extensions names: a schema the user mapped or downloaded (compiled at
 * run time, or an error saying why it cannot be), a bundled schema (checked), the base model
 * schema (the base model rules check it), a misspelling of a bundled URL (an error, with the URL
 * meant), or a schema basemodel does not have (a warning saying how to check it).
 */
import type { Issue } from "../../diagnostics/issue.js";
import { issue } from "../../diagnostics/messages.js";
import { closest } from "../../diagnostics/suggest.js";
import { bundledCheck, bundledSchema, extensionSchemas, type BundledSchema, type SchemaToCheck } from "./registry.js";
import type { RuntimeSchemas } from "./runtime.js";

/** https://<host>/<name>/v<version>/schema.json, the form every extension URL takes. */
const EXTENSION_URL = /^https:\/\/([^/]+)\/([^/]+)\/v(\d+\.\d+\.\d+)\/schema\.json#?$/;

/** The extension a URL is about ("mlm" for .../mlm/... and .../mlm-extension/...), read from its path. */
export function familyOf(url: string): string | undefined {
  return /^https?:\/\/[^/]+\/([^/]+)\//i.exec(url)?.[1]?.toLowerCase().replace(/-extension$/, "");
}

/** Version strings in semver order. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((version) => version.split(".").map(Number)) as [number[], number[]];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** The newest bundled schema of an extension, at the URL its maintainers publish today. */
export function newestOf(family: string): BundledSchema | undefined {
  return extensionSchemas
    .filter((schema) => schema.family === family && schema.url.startsWith("https://stac-extensions.github.io/"))
    .reduce<BundledSchema | undefined>((newest, schema) => (newest === undefined || compareVersions(schema.version, newest.version) > 0 ? schema : newest), undefined);
}

/** A URL close to it is a misspelling only this close (a version cut short, http for https, a typo). */
const MISSPELLING = 4;

const FAMILIES = [...new Set(extensionSchemas.map((schema) => schema.family))];

export interface ExtensionCheck {
  /** The schemas the item names, in its order, each once. */
  schemas: SchemaToCheck[];
  issues: Issue[];
}

/**
 * The schemas to check for an item's stac_extensions, and what is wrong with the entries that name
 * none. `runtime` holds the schemas the user mapped or downloaded: they win over the bundled ones.
 */
export function checkExtensionUrls(entries: unknown, baseModelUrl: string, runtime?: RuntimeSchemas): ExtensionCheck {
  const schemas: SchemaToCheck[] = [];
  const add = (schema: SchemaToCheck) => {
    if (!schemas.some((listed) => listed.url === schema.url)) schemas.push(schema);
  };
  const issues: Issue[] = [];
  if (!Array.isArray(entries)) return { schemas, issues };
  const bundledUrls = extensionSchemas.map((schema) => schema.url);
  entries.forEach((url, index) => {
    if (typeof url !== "string" || url === baseModelUrl) return; // a wrong type is the core schema's to report
    const path = `/stac_extensions/${index}`;
    const own = runtime?.find(url);
    if (own !== undefined && "check" in own) return add({ url, role: "extension", family: familyOf(url) ?? url, passes: own.check, check: own.check });
    if (own !== undefined) {
      issues.push(issue("stac-extension-schema", path, `stac_extensions[${index}] cannot be checked: ${own.problem}; found ${JSON.stringify(url)}`, { actual: url }));
      return;
    }
    const schema = bundledSchema(url);
    if (schema !== undefined) return add(bundledCheck(schema));
    // A near miss of the base model identifier is the base model rules' to report.
    if (closest(url, [baseModelUrl], MISSPELLING) !== undefined) return;
    const form = EXTENSION_URL.exec(url);
    const family = familyOf(url);
    const known = form !== null && extensionSchemas.some((bundled) => bundled.url.startsWith(`https://${form[1]}/${form[2]}/`));
    // A URL of the usual form names another extension (sar, view, ...) unless its name is a
    // near miss of one basemodel has; any other form is a misspelling when it is close to a URL.
    const misspelt = form === null ? true : !known && closest(family ?? "", FAMILIES, 1) !== undefined;
    const near = misspelt ? closest(url, bundledUrls, form === null ? MISSPELLING : MISSPELLING + 2) : undefined;
    if (near !== undefined) {
      issues.push(
        issue("stac-extension-url", path, `stac_extensions[${index}] is not the URL of any STAC extension schema; found ${JSON.stringify(url)}`, {
          expected: near,
          actual: url,
          suggestion: `did you mean ${JSON.stringify(near)}?`,
        }),
      );
      return;
    }
    const newest = family === undefined ? undefined : newestOf(family);
    const which = known && newest ? `version ${form![3]} of the ${family} extension is not bundled (the newest bundled is ${newest.version})` : "this schema is not bundled";
    const elsewhere = runtime === undefined ? "" : runtime.sources.cache === undefined ? ", nor mapped" : ", nor mapped, nor downloaded";
    issues.push(
      issue("stac-extension-unknown", path, `stac_extensions[${index}] is not checked: ${which}${elsewhere}; found ${JSON.stringify(url)}`, {
        actual: url,
        suggestion: `to check it, give a local copy with --schema-map "${url}=<file>" or download it once with --fetch; in the library, schemaMap or fetchSchemas`,
      }),
    );
  });
  return { schemas, issues };
}
