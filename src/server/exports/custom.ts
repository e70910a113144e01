/**
 * One custom export (raw-data-api's POST /custom/snapshot/), start to finish: for each category
 * and geometry type, one query whose features go to a writer per format at once, then one zip
 * per format (the files, a Readme and, for a drawn area, the clipping boundary), published in
 * the task's folder as upstream names them: <prefix>_<category>_<type>_<format>.zip.
 */
import { basename } from "node:path";
import type { CustomType } from "../api/custom.js";
import type { PolygonalGeometry } from "../api/snapshot.js";
import { KIND_TABLES, type AreaFilter, type GeometryKind, type TagFilter } from "../../model/query.js";
import type { FeatureSnapshot, FeatureStore } from "../store/store.js";
import type { FeatureTable } from "../../model/features.js";
import { sanitizeFileName } from "./file-name.js";
import { attributeKeys, type ExportPart, type ExportPlan } from "./plan.js";
import { downloadPath } from "./published.js";
import { publishZip, readme, withExportResources, writeFormats, type SnapshotOptions } from "./snapshot.js";
import type { ExportColumn, ExportFormat } from "../formats/types.js";

/** One category as the export runs it: its `where` already read into a filter. */
export interface CustomCategoryJob {
  name: string;
  types: CustomType[];
  /** Tag keys, one column each. */
  select: string[];
  tags: TagFilter;
  formats: ExportFormat[];
}

/** A custom export request, checked, as the queue keeps it. */
export interface CustomExportJob {
  /** The area: the one drawn, or the country's. */
  geometry: PolygonalGeometry;
  /** Whether the zips carry the area as clipping_boundary.geojson (upstream: only for a drawn area). */
  clippingBoundary: boolean;
  /** Starts every file's name (sanitised with each category's name). */
  prefix: string;
  categories: CustomCategoryJob[];
  /** The request as it came, for the Readme. */
  request: unknown;
}

export interface CustomResourceOutcome {
  /** The zip's name. */
  name: string;
  /** The published zip's download path. */
  download: string;
  format: ExportFormat;
  /** Features in the zip's file(s). */
  features: number;
  bytes: number;
  /** ISO 8601 UTC. */
  madeAt: string;
}

export interface CustomExportOutcome {
  kind: "custom";
  categories: Array<{ name: string; resources: CustomResourceOutcome[] }>;
  seconds: number;
  /** ISO 8601 UTC. */
  startedAt: string;
}

const KINDS: Record<CustomType, GeometryKind> = { points: "point", lines: "line", polygons: "polygon" };

/** After the chosen tags, as upstream's custom exports end every row. */
const TRAILING_COLUMNS: readonly ExportColumn[] = [
  { name: "osm_id", type: "integer" },
  { name: "osm_type", type: "text" },
];

/** A category's features of one type: the chosen tags, then osm_id and osm_type (the table the feature is in, as upstream's tableoid). */
export function customPlan(category: Pick<CustomCategoryJob, "select" | "tags">, type: CustomType): ExportPlan {
  const kind = KINDS[type];
  const keys = attributeKeys(category.select).filter((key) => !TRAILING_COLUMNS.some((column) => column.name === key));
  const part = (table: FeatureTable): ExportPart => ({
    kind,
    tables: [table],
    tags: category.tags,
    properties: (feature) => {
      const properties: Record<string, string | number | null> = {};
      // defineProperty: a tag key such as "__proto__" must stay a plain member.
      for (const key of keys) Object.defineProperty(properties, key, { value: feature.tags[key] ?? null, enumerable: true, writable: true, configurable: true });
      properties.osm_id = feature.osmId;
      properties.osm_type = table;
      return properties;
    },
  });
  return {
    parts: KIND_TABLES[kind].map(part),
    columns: [...keys.map((name): ExportColumn => ({ name, type: "text" })), ...TRAILING_COLUMNS],
    relation: "intersects",
    geometry: (feature) => feature.geometry,
    oneGeometryKind: true,
  };
}

/** A category's name in a file name, as upstream's slugify makes it: "Points of Interest!" is points_of_interest. */
const slug = (name: string): string => name.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]+/gu, "_").replace(/^_+|_+$/g, "");

/**
 * The base of each category's file names, <prefix>_<category>, unique within the export: two
 * categories whose names read alike once sanitised ("Roads", "roads!") must not overwrite each other.
 */
function baseNames(prefix: string, categories: readonly CustomCategoryJob[]): string[] {
  const taken = new Set<string>();
  return categories.map(({ name }) => {
    const base = sanitizeFileName(`${prefix}_${slug(name)}`);
    let unique = base;
    for (let n = 2; taken.has(unique); n++) unique = `${base}_${n}`;
    taken.add(unique);
    return unique;
  });
}

type Options = Pick<SnapshotOptions, "artifacts" | "taskId" | "onProgress" | "signal">;

export async function exportCustom(store: FeatureStore, job: CustomExportJob, options: Options): Promise<CustomExportOutcome> {
  const started = new Date();
  return withExportResources(store, job.geometry, options, async (data, area, work) => {
    const bases = baseNames(job.prefix, job.categories);
    const steps = job.categories.reduce((sum, category) => sum + category.types.length, 0);
    let step = 0;
    const categories: CustomExportOutcome["categories"] = [];
    for (const [index, category] of job.categories.entries()) {
      const resources: CustomResourceOutcome[] = [];
      for (const type of category.types) {
        const done = step++;
        const onProgress = (percent: number) => options.onProgress?.(Math.floor(((done + percent / 100) / steps) * 100));
        resources.push(...(await exportType(data, area, job, category, type, `${bases[index]!}_${type}`, work, { ...options, onProgress })));
      }
      categories.push({ name: category.name, resources });
    }
    options.onProgress?.(100);
    return { kind: "custom", categories, seconds: (Date.now() - started.getTime()) / 1000, startedAt: started.toISOString() };
  });
}

/** One category's features of one type, in each of its formats: a zip per format. */
async function exportType(
  data: FeatureSnapshot,
  area: AreaFilter,
  job: CustomExportJob,
  category: CustomCategoryJob,
  type: CustomType,
  base: string,
  work: string,
  options: Options,
): Promise<CustomResourceOutcome[]> {
  const outputs = category.formats.map((format) => ({ format, baseName: `${base}_${format}` }));
  const { files, features } = await writeFormats(data, area, customPlan(category, type), outputs, work, options);
  const resources: CustomResourceOutcome[] = [];
  for (const [index, { format, baseName }] of outputs.entries()) {
    const download = downloadPath({ fileName: base, outputType: format, taskId: options.taskId, uuid: false, extension: "zip" });
    const bytes = await publishZip(
      options.artifacts,
      download,
      [
        ...files[index]!.map((path) => ({ name: basename(path), path })),
        { name: "Readme.txt", content: readme(job.request, features) },
        ...(job.clippingBoundary ? [{ name: "clipping_boundary.geojson", content: JSON.stringify(job.geometry) + "\n" }] : []),
      ],
      options.signal,
    );
    resources.push({ name: `${baseName}.zip`, download, format, features, bytes, madeAt: new Date().toISOString() });
  }
  return resources;
}
