/**
 * Imports an OSM file (.osm.pbf, .osm, .osm.gz) into a new feature store.
 *
 * Into a file: two streaming passes over the input (see assemble.ts for why), then the store
 * is written to a temporary file next to `dbPath` and renamed over it only once complete: a
 * failed import leaves no half-written store, and an existing store is replaced atomically.
 * Into a database: its factory loads the file (osm2pgsql), told what the file's header says.
 */
import { rename, rm, stat } from "node:fs/promises";
import { basename } from "node:path";
import { storeFactory } from "../store/open.js";
import { FEATURE_TABLES } from "../../model/features.js";
import type { FeatureTable } from "../../model/features.js";
import type { FeatureWriter, WritableFeatureStore } from "../store/store.js";
import { FeatureAssembler, ReferenceCollector } from "../osm/assemble.js";
import type { ProblemCounts, References } from "../osm/assemble.js";
import { OsmImportError } from "../osm/errors.js";
import { readPbf } from "../osm/pbf.js";
import { formatOsmTimestamp } from "../../model/osm.js";
import type { OsmReader } from "../../model/osm.js";
import { readOsmXml } from "../osm/xml.js";

export { OsmImportError } from "../osm/errors.js";

export interface ImportOptions {
  /** Progress in input bytes over both passes: `done` grows to `total`. */
  onProgress?(done: number, total: number): void;
  /** Stops the import between blocks (Ctrl-C): it fails with "interrupted" and leaves nothing behind. */
  signal?: AbortSignal;
}

export interface ImportSummary {
  counts: Record<FeatureTable, number>;
  /** Null where another program assembled the features (osm2pgsql), which does not count them. */
  problems: ProblemCounts | null;
  replicationTimestamp: string | null;
  seconds: number;
}

const READERS: Array<{ suffix: string; reader: OsmReader }> = [
  { suffix: ".osm.pbf", reader: readPbf },
  { suffix: ".pbf", reader: readPbf },
  { suffix: ".osm.gz", reader: readOsmXml },
  { suffix: ".osm", reader: readOsmXml },
];

function readerFor(path: string): OsmReader {
  const name = path.toLowerCase();
  const match = READERS.find(({ suffix }) => name.endsWith(suffix));
  if (!match) {
    throw new OsmImportError(path, `unknown file type (expected one of ${READERS.map((r) => r.suffix).join(", ")})`);
  }
  return match.reader;
}

export async function importOsm(inputPath: string, dbPath: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const started = performance.now();
  const read = readerFor(inputPath);
  const size = await fileSize(inputPath);
  const factory = storeFactory(dbPath);
  if (factory.kind === "osm2pgsql") {
    const loaded = await factory.load(inputPath, dbPath, {
      replicationTimestamp: await headerTimestamp(read, inputPath),
      statistics: { source: basename(inputPath), importedAt: formatOsmTimestamp(Date.now()) },
      onProgress: (fraction) => options.onProgress?.(fraction * size, size),
      ...(options.signal && { signal: options.signal }),
    });
    return { ...loaded, problems: null, seconds: (performance.now() - started) / 1000 };
  }
  const progress = (pass: number) => (bytes: number) => {
    if (options.signal?.aborted) throw new OsmImportError(inputPath, "interrupted; nothing was written");
    options.onProgress?.(pass * size + bytes, 2 * size);
  };

  const collector = new ReferenceCollector();
  for await (const block of read(inputPath, { skipNodes: true, onBytesRead: progress(0) })) {
    if (block.kind === "entities") for (const entity of block.entities) collector.add(entity);
  }
  const references = collector.finish();

  const temporaryPath = `${dbPath}.${process.pid}.${Date.now()}.importing`;
  let store: WritableFeatureStore | undefined;
  try {
    store = await factory.create(temporaryPath);
    const writer = store.writer();
    const summary = await writeFeatures(read, inputPath, references, writer, progress(1));
    const seconds = (performance.now() - started) / 1000;
    await writer.finish({
      replicationTimestamp: summary.replicationTimestamp,
      statistics: { source: basename(inputPath), importedAt: formatOsmTimestamp(Date.now()), ...summary, seconds },
    });
    await store.close();
    await rename(temporaryPath, dbPath);
    return { ...summary, seconds };
  } catch (error) {
    await store?.close().catch(() => undefined);
    await rm(temporaryPath, { force: true });
    throw factory.failure(dbPath, error) ?? error;
  }
}

/**
 * The replication timestamp the file's header gives (a .pbf's first block), or null: also for a
 * file this reader cannot read, which the loader then judges (and names what is wrong) itself.
 */
async function headerTimestamp(read: OsmReader, path: string): Promise<string | null> {
  try {
    for await (const block of read(path, { skipNodes: true })) return block.kind === "header" ? block.header.replicationTimestamp : null;
  } catch {
    // Said by the loader.
  }
  return null;
}

async function fileSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error("not a regular file");
    return info.size;
  } catch (error) {
    throw new OsmImportError(path, `cannot read file (${(error as Error).message})`, { cause: error });
  }
}

/** Pass 2: assembles every entity and inserts the features; aborts the writer on failure. */
async function writeFeatures(
  read: OsmReader,
  inputPath: string,
  references: References,
  writer: FeatureWriter,
  onBytesRead: (bytes: number) => void,
): Promise<Omit<ImportSummary, "seconds">> {
  const assembler = new FeatureAssembler(references);
  const counts = Object.fromEntries(FEATURE_TABLES.map((table) => [table, 0])) as Record<FeatureTable, number>;
  let headerTimestamp: string | null = null;
  // Fallback when the header has none (typical of .osm files): the newest object's time.
  let newestEntity = -Infinity;
  try {
    for await (const block of read(inputPath, { onBytesRead })) {
      if (block.kind === "header") {
        headerTimestamp = block.header.replicationTimestamp;
        continue;
      }
      for (const entity of block.entities) {
        if (entity.timestamp !== null && entity.timestamp > newestEntity) newestEntity = entity.timestamp;
        // Every object, tagged or not, so that `basemodel update` can rebuild what a change touches.
        await writer.insertRaw(entity);
        const assembled = assembler.add(entity);
        if (assembled === null) continue;
        await writer.insert(assembled.table, assembled.feature);
        counts[assembled.table]++;
      }
    }
  } catch (error) {
    await writer.abort();
    throw error;
  }
  return {
    counts,
    problems: assembler.problems,
    replicationTimestamp: headerTimestamp ?? (Number.isFinite(newestEntity) ? formatOsmTimestamp(newestEntity) : null),
  };
}
