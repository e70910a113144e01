import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { importOsm, OsmImportError } from "../../../src/server/fill/import.js";
import { fixture, MONACO, temporaryDirectory } from "./helpers.js";

/** Deterministic pseudo-random bytes (a fixed-seed LCG), so failures reproduce. */
function garbage(length: number, seed = 42): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

// Each case runs a (failing) import; CI machines can be slow and loaded: allow them time.
describe("bad input", { timeout: 120_000 }, () => {
  const directory = temporaryDirectory();
  let counter = 0;

  /** Writes `content` as `name`, imports it, and returns the error (checking nothing was left behind). */
  async function importFailure(name: string, content: Buffer | string | null, dbName = `out-${++counter}.db`): Promise<OsmImportError> {
    const inputPath = join(directory, name);
    if (content !== null) writeFileSync(inputPath, content);
    const before = readdirSync(directory).sort();
    const error = await importOsm(inputPath, join(directory, dbName)).then(
      () => expect.unreachable("the import should have failed"),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OsmImportError);
    expect((error as OsmImportError).message).toContain(inputPath);
    // No store and no temporary file: the directory is as it was.
    expect(readdirSync(directory).sort()).toEqual(before);
    return error as OsmImportError;
  }

  it("a truncated .pbf (the first 1000 bytes of Monaco)", async () => {
    const error = await importFailure("truncated.osm.pbf", readFileSync(MONACO).subarray(0, 1000));
    expect(error.problem).toMatch(/truncated PBF file/);
  });

  it("a .pbf cut inside a later block", async () => {
    const error = await importFailure("cut.osm.pbf", readFileSync(MONACO).subarray(0, 300_000));
    expect(error.problem).toMatch(/truncated PBF file \(the block at byte \d+ is incomplete\)/);
  });

  it("a .pbf with a corrupted data block", async () => {
    const bytes = Buffer.from(readFileSync(MONACO));
    // Past the header block, inside the first data block's zlib stream.
    garbage(64).copy(bytes, 400);
    const error = await importFailure("corrupt.osm.pbf", bytes);
    expect(error.problem).toMatch(/bad protobuf data/);
  });

  it("garbage bytes named .osm.pbf", async () => {
    const error = await importFailure("garbage.osm.pbf", garbage(4096));
    expect(error.problem).toMatch(/not an OSM PBF file/);
  });

  it("an empty .pbf", async () => {
    const error = await importFailure("empty.osm.pbf", "");
    expect(error.problem).toMatch(/no OSMHeader block/);
  });

  it("malformed XML", async () => {
    const error = await importFailure("malformed.osm", '<osm version="0.6"><node id="1" lat="0" lon="0"></way></osm>');
    expect(error.problem).toMatch(/malformed XML/);
  });

  it("XML cut off mid-document", async () => {
    const text = readFileSync(fixture("assembly.osm"), "utf8");
    const error = await importFailure("cut.osm", text.slice(0, text.length / 2));
    expect(error.problem).toMatch(/malformed XML/);
  });

  it("XML that is not OSM", async () => {
    const error = await importFailure("page.osm", "<html><body>Not found</body></html>");
    expect(error.problem).toBe("not OSM XML (the root element is <html>, not <osm>)");
  });

  it("OSM XML with an impossible coordinate", async () => {
    const error = await importFailure("coordinate.osm", '<osm><node id="1" lat="95" lon="0"/></osm>');
    expect(error.problem).toMatch(/invalid OSM XML at line 1: node 1 with lat="95"/);
  });

  it("binary data named .osm", async () => {
    const error = await importFailure("binary.osm", readFileSync(MONACO).subarray(0, 5000));
    expect(error.problem).toMatch(/not UTF-8|malformed XML/);
  });

  it("a truncated .osm.gz", async () => {
    const gzipped = gzipSync(readFileSync(fixture("assembly.osm")));
    const error = await importFailure("truncated.osm.gz", gzipped.subarray(0, gzipped.length - 100));
    expect(error.problem).toMatch(/truncated gzip data/);
  });

  it("a .osm.gz that is not gzip", async () => {
    const error = await importFailure("plain.osm.gz", readFileSync(fixture("assembly.osm")));
    expect(error.problem).toMatch(/corrupt gzip data/);
  });

  it("an unknown extension", async () => {
    const error = await importFailure("data.geojson", "{}");
    expect(error.problem).toMatch(/unknown file type \(expected one of \.osm\.pbf, \.pbf, \.osm\.gz, \.osm\)/);
  });

  it("a missing file", async () => {
    const error = await importFailure("missing.osm.pbf", null);
    expect(error.problem).toMatch(/cannot read file/);
  });

  it("a failed import keeps the previous store untouched", async () => {
    writeFileSync(join(directory, "existing.db"), "previous store");
    await importFailure("garbage2.osm.pbf", garbage(100, 7), "existing.db");
    expect(readFileSync(join(directory, "existing.db"), "utf8")).toBe("previous store");
  });
});
