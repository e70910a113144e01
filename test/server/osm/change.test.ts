import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readOsmChange } from "../../../src/server/osm/change.js";
import { OsmImportError } from "../../../src/server/osm/errors.js";
import { temporaryDirectory } from "./helpers.js";

const NO_METADATA = { version: null, timestamp: null, changeset: null, uid: null, user: null };

const CHANGE = `<?xml version="1.0" encoding="UTF-8"?>
<osmChange version="0.6" generator="osmdbt-create-diff/0.6">
  <create>
    <node id="1" version="1" timestamp="2025-01-02T03:04:05Z" uid="7" user="alice" changeset="100" lat="-1.25" lon="30.123456789">
      <tag k="amenity" v="school"/>
    </node>
    <way id="10" version="1" changeset="100"><nd ref="1"/><nd ref="2"/><tag k="highway" v="path"/></way>
  </create>
  <modify>
    <relation id="20" version="3"><member type="way" ref="10" role="outer"/><member type="node" ref="1" role=""/></relation>
  </modify>
  <delete>
    <node id="2" version="4" changeset="101" uid="8" user="bob" timestamp="2025-01-03T00:00:00Z"/>
    <way id="11" version="2"><nd ref="2"/></way>
  </delete>
  <create>
    <relation id="21" version="1"><tag k="type" v="route"/></relation>
  </create>
  <modify>
    <node id="3" version="2" lat="0" lon="0"/>
  </modify>
  <delete if-unused="true">
    <relation id="22" version="5"/>
  </delete>
</osmChange>
`;

describe("readOsmChange", () => {
  const directory = temporaryDirectory();
  let counter = 0;

  function write(content: string | Buffer, suffix = ".osc"): string {
    const path = join(directory, `change-${++counter}${suffix}`);
    writeFileSync(path, content);
    return path;
  }

  async function failure(content: string | Buffer, suffix?: string): Promise<OsmImportError> {
    const path = write(content, suffix);
    const error = await readOsmChange(path).then(
      () => expect.unreachable("reading should have failed"),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OsmImportError);
    expect((error as OsmImportError).file).toBe(path);
    return error as OsmImportError;
  }

  it("reads create, modify and delete of nodes, ways and relations in document order, over several blocks", async () => {
    const change = await readOsmChange(write(CHANGE));
    expect(change.generator).toBe("osmdbt-create-diff/0.6");
    expect(change.actions).toEqual([
      {
        action: "create",
        entity: {
          type: "node",
          id: 1,
          lon: 30.1234568,
          lat: -1.25,
          tags: { amenity: "school" },
          version: 1,
          timestamp: Date.parse("2025-01-02T03:04:05Z"),
          changeset: 100,
          uid: 7,
          user: "alice",
        },
      },
      { action: "create", entity: { type: "way", id: 10, refs: [1, 2], tags: { highway: "path" }, ...NO_METADATA, version: 1, changeset: 100 } },
      {
        action: "modify",
        entity: {
          type: "relation",
          id: 20,
          members: [
            { type: "way", ref: 10, role: "outer" },
            { type: "node", ref: 1, role: "" },
          ],
          tags: {},
          ...NO_METADATA,
          version: 3,
        },
      },
      // Deletions carry identity and metadata only: no coordinates, nodes or tags.
      {
        action: "delete",
        entity: { type: "node", id: 2, version: 4, timestamp: Date.parse("2025-01-03T00:00:00Z"), changeset: 101, uid: 8, user: "bob" },
      },
      { action: "delete", entity: { type: "way", id: 11, ...NO_METADATA, version: 2 } },
      { action: "create", entity: { type: "relation", id: 21, members: [], tags: { type: "route" }, ...NO_METADATA, version: 1 } },
      { action: "modify", entity: { type: "node", id: 3, lon: 0, lat: 0, tags: {}, ...NO_METADATA, version: 2 } },
      { action: "delete", entity: { type: "relation", id: 22, ...NO_METADATA, version: 5 } },
    ]);
  });

  it("reads a gzipped change file, and an .osm-named one, the same", async () => {
    const plain = await readOsmChange(write(CHANGE));
    expect(await readOsmChange(write(gzipSync(CHANGE), ".osc.gz"))).toEqual(plain);
    expect(await readOsmChange(write(CHANGE, ".osm"))).toEqual(plain);
  });

  it("reads an empty <osmChange/> as no actions", async () => {
    expect(await readOsmChange(write('<osmChange version="0.6"/>'))).toEqual({ actions: [], generator: null });
    expect(await readOsmChange(write("<osmChange><create/><modify></modify><delete/></osmChange>"))).toEqual({ actions: [], generator: null });
  });

  describe("bad input", () => {
    it("malformed XML", async () => {
      const error = await failure('<osmChange><create><node id="1" lat="0" lon="0"></way></create></osmChange>');
      expect(error.problem).toMatch(/^malformed XML \(.*1:\d+.*\)$/);
    });

    it("a file cut off mid-document", async () => {
      const error = await failure(CHANGE.slice(0, CHANGE.length / 2));
      expect(error.problem).toMatch(/^malformed XML/);
    });

    it("an OSM data file", async () => {
      const error = await failure('<osm version="0.6"><node id="1" lat="0" lon="0"/></osm>', ".osm");
      expect(error.problem).toBe("not an OSM change file (the root element is <osm>, not <osmChange>)");
    });

    it("an empty file", async () => {
      const error = await failure("");
      expect(error.problem).toBe("not an OSM change file (empty document)");
    });

    it("a node to create without coordinates", async () => {
      const error = await failure('<osmChange>\n<create>\n<node id="5" version="1" lat="1"/>\n</create>\n</osmChange>');
      expect(error.problem).toBe("invalid OSM change at line 3: node 5 without lon (a longitude between -180 and 180 is required)");
    });

    it("a modified node with an impossible latitude", async () => {
      const error = await failure('<osmChange><modify><node id="6" lat="95" lon="0"/></modify></osmChange>');
      expect(error.problem).toBe('invalid OSM change at line 1: node 6 with lat="95" (a latitude between -90 and 90 is required)');
    });

    it("a non-integer id, in a deletion too", async () => {
      const error = await failure('<osmChange><delete><way id="1.5" version="2"/></delete></osmChange>');
      expect(error.problem).toBe('invalid OSM change at line 1: <way> with id="1.5" (an integer is required)');
    });

    it("a non-integer node reference", async () => {
      const error = await failure('<osmChange><create><way id="1"><nd ref="x"/></way></create></osmChange>');
      expect(error.problem).toBe('invalid OSM change at line 1: <nd> with ref="x" (an integer is required)');
    });

    it("a timestamp that is not a date", async () => {
      const error = await failure('<osmChange><delete><node id="2" timestamp="yesterday"/></delete></osmChange>');
      expect(error.problem).toMatch(/^invalid OSM change at line 1: node 2 with timestamp="yesterday" \(an ISO-8601 date and time/);
    });

    it("an entity outside <create>, <modify> or <delete>", async () => {
      const error = await failure('<osmChange>\n<node id="1" lat="0" lon="0"/>\n</osmChange>');
      expect(error.problem).toBe("invalid OSM change at line 2: <node> outside <create>, <modify> or <delete>");
    });

    it("a truncated .osc.gz", async () => {
      const gzipped = gzipSync(CHANGE);
      const error = await failure(gzipped.subarray(0, gzipped.length - 20), ".osc.gz");
      expect(error.problem).toBe("truncated gzip data (unexpected end of file)");
    });

    it("a .osc.gz that is not gzip", async () => {
      const error = await failure(CHANGE, ".osc.gz");
      expect(error.problem).toMatch(/^corrupt gzip data/);
    });

    it("bytes that are not UTF-8", async () => {
      const error = await failure(Buffer.from([0x3c, 0x6f, 0xff, 0xfe, 0x00]));
      expect(error.problem).toBe("not UTF-8 text, so not an OSM change file");
    });

    it("a missing file", async () => {
      const path = join(directory, "missing.osc");
      await expect(readOsmChange(path)).rejects.toThrow(/Cannot import .*missing\.osc: cannot open file \(ENOENT/);
    });
  });
});
