import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readChangesets } from "../../../src/server/osm/changesets.js";
import type { ChangesetRecord } from "../../../src/server/osm/changesets.js";
import { OsmImportError } from "../../../src/server/osm/errors.js";
import { fixture, temporaryDirectory } from "./helpers.js";

/**
 * fixtures/osm/changesets.osm.bz2 holds the text below as two bzip2 streams, one per
 * changeset, as pbzip2 and lbzip2 write them; it was made once with
 * `bzip2 -9 -c part1 > a.bz2; bzip2 -9 -c part2 > b.bz2; cat a.bz2 b.bz2`.
 */
const CHANGESETS = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6" generator="basemodel test fixture">
 <changeset id="101" created_at="2025-01-02T03:04:05Z" closed_at="2025-01-02T04:00:00Z" open="false" user="alice" uid="7" min_lat="-1.5" min_lon="30.25" max_lat="-1.25" max_lon="30.5" num_changes="12" comments_count="1">
  <tag k="comment" v="Buildings for #hotosm-project-123, see https://tasks.hotosm.org/projects/123#map=18/-1.3/30.4 #Mapathon"/>
  <tag k="created_by" v="JOSM/1.5 (19160 en)"/>
  <tag k="hashtags" v="#hotosm-project-123;#mapathon"/>
  <discussion>
   <comment id="1" date="2025-01-05T00:00:00Z" uid="8" user="bob">
    <text>Thanks #reviewed</text>
   </comment>
  </discussion>
 </changeset>
 <changeset id="102" created_at="2025-01-03T00:00:00Z" open="true" user="bob" uid="8" num_changes="0" comments_count="0"/>
</osm>
`;

const EXPECTED: ChangesetRecord[] = [
  {
    id: 101,
    createdAt: "2025-01-02T03:04:05Z",
    closedAt: "2025-01-02T04:00:00Z",
    uid: 7,
    user: "alice",
    editor: "JOSM/1.5 (19160 en)",
    hashtags: ["hotosm-project-123", "mapathon"],
    comment: "Buildings for #hotosm-project-123, see https://tasks.hotosm.org/projects/123#map=18/-1.3/30.4 #Mapathon",
    bbox: [30.25, -1.5, 30.5, -1.25],
    tags: {
      comment: "Buildings for #hotosm-project-123, see https://tasks.hotosm.org/projects/123#map=18/-1.3/30.4 #Mapathon",
      created_by: "JOSM/1.5 (19160 en)",
      hashtags: "#hotosm-project-123;#mapathon",
    },
  },
  // Open and empty: no closing time, no box, no tags.
  { id: 102, createdAt: "2025-01-03T00:00:00Z", closedAt: null, uid: 8, user: "bob", editor: null, hashtags: [], comment: null, bbox: null, tags: {} },
];

describe("readChangesets", () => {
  const directory = temporaryDirectory();
  let counter = 0;

  function write(content: string | Buffer, suffix = ".osm"): string {
    const path = join(directory, `changesets-${++counter}${suffix}`);
    writeFileSync(path, content);
    return path;
  }

  async function failure(content: string | Buffer, suffix?: string): Promise<OsmImportError> {
    const path = write(content, suffix);
    const error = await readChangesets(path).then(
      () => expect.unreachable("reading should have failed"),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OsmImportError);
    expect((error as OsmImportError).file).toBe(path);
    return error as OsmImportError;
  }

  it("reads .osm, .osm.gz and (multi-stream) .osm.bz2 changeset files alike", async () => {
    expect(await readChangesets(write(CHANGESETS))).toEqual(EXPECTED);
    expect(await readChangesets(write(gzipSync(CHANGESETS), ".osm.gz"))).toEqual(EXPECTED);
    expect(await readChangesets(fixture("changesets.osm.bz2"))).toEqual(EXPECTED);
  });

  it("reads a file without changesets as none", async () => {
    expect(await readChangesets(write('<osm version="0.6"/>'))).toEqual([]);
  });

  it("keeps every tag, and takes hashtags from the comment alone when there is no hashtags tag", async () => {
    const [changeset] = await readChangesets(
      write('<osm><changeset id="1"><tag k="comment" v="#Mapathon, #roads."/><tag k="source" v="Bing"/></changeset></osm>'),
    );
    expect(changeset).toMatchObject({ hashtags: ["Mapathon", "roads"], tags: { comment: "#Mapathon, #roads.", source: "Bing" }, createdAt: null, uid: null, user: null });
  });

  describe("bad input", () => {
    it("malformed XML", async () => {
      const error = await failure('<osm><changeset id="1"></node></osm>');
      expect(error.problem).toMatch(/^malformed XML \(/);
    });

    it("a date that does not parse", async () => {
      const error = await failure('<osm>\n <changeset id="5" created_at="yesterday"/>\n</osm>');
      expect(error.problem).toBe(
        'invalid OSM changeset file at line 2: changeset 5 with created_at="yesterday" (an ISO-8601 date and time such as 2025-01-02T03:04:05Z is required)',
      );
    });

    it("a closing time without a zone", async () => {
      const error = await failure('<osm><changeset id="5" closed_at="2025-01-02 03:04"/></osm>');
      expect(error.problem).toMatch(/changeset 5 with closed_at="2025-01-02 03:04" \(an ISO-8601 date and time/);
    });

    it("a non-integer id", async () => {
      const error = await failure('<osm><changeset id="12a"/></osm>');
      expect(error.problem).toBe('invalid OSM changeset file at line 1: <changeset> with id="12a" (an integer is required)');
    });

    it("a changeset without an id", async () => {
      const error = await failure("<osm><changeset/></osm>");
      expect(error.problem).toBe("invalid OSM changeset file at line 1: <changeset> without id (an integer is required)");
    });

    it("a non-integer uid", async () => {
      const error = await failure('<osm><changeset id="5" uid="seven"/></osm>');
      expect(error.problem).toBe('invalid OSM changeset file at line 1: changeset 5 with uid="seven" (an integer is required)');
    });

    it("a tag without a key", async () => {
      const error = await failure('<osm><changeset id="5">\n<tag v="x"/></changeset></osm>');
      expect(error.problem).toBe("invalid OSM changeset file at line 2: <tag> without k");
    });

    it("half a bounding box", async () => {
      const error = await failure('<osm><changeset id="5" min_lat="1" max_lat="2"/></osm>');
      expect(error.problem).toBe("invalid OSM changeset file at line 1: changeset 5 without min_lon (a longitude between -180 and 180 is required)");
    });

    it("an OSM data file", async () => {
      const error = await failure('<osm>\n<node id="1" lat="0" lon="0"/>\n</osm>');
      expect(error.problem).toBe("invalid OSM changeset file at line 2: <node> where a <changeset> belongs (this looks like a file of OSM data)");
    });

    it("a change file", async () => {
      const error = await failure("<osmChange/>");
      expect(error.problem).toBe("not an OSM changeset file (the root element is <osmChange>, not <osm>)");
    });

    it("a truncated .osm.gz", async () => {
      const gzipped = gzipSync(CHANGESETS);
      const error = await failure(gzipped.subarray(0, gzipped.length - 30), ".osm.gz");
      expect(error.problem).toBe("truncated gzip data (unexpected end of file)");
    });

    it("a truncated .osm.bz2", async () => {
      const bytes = readFileSync(fixture("changesets.osm.bz2"));
      const error = await failure(bytes.subarray(0, bytes.length - 40), ".osm.bz2");
      expect(error.problem).toBe("truncated bzip2 data (unexpected end of file)");
    });

    it("a corrupt .osm.bz2", async () => {
      const bytes = Buffer.from(readFileSync(fixture("changesets.osm.bz2")));
      for (let i = 100; i < 110; i++) bytes[i] = (bytes[i] ?? 0) ^ 0x5a;
      const error = await failure(bytes, ".osm.bz2");
      expect(error.problem).toMatch(/^corrupt bzip2 data \(/);
    });

    it("a .osm.bz2 that is not bzip2", async () => {
      const error = await failure(CHANGESETS, ".osm.bz2");
      expect(error.problem).toBe("not bzip2 data (the file does not start with a bzip2 header)");
    });

    it("a .osm.bz2 holding XML cut off mid-document (the fixture's first stream alone)", async () => {
      const bytes = readFileSync(fixture("changesets.osm.bz2"));
      const error = await failure(bytes.subarray(0, bytes.indexOf("BZh91AY&SY", 1)), ".osm.bz2");
      expect(error.problem).toMatch(/^malformed XML \(/);
    });

    it("a missing file", async () => {
      await expect(readChangesets(join(directory, "missing.osm.bz2"))).rejects.toThrow(/missing\.osm\.bz2: cannot open file \(ENOENT/);
      await expect(readChangesets(join(directory, "missing.osm"))).rejects.toThrow(/missing\.osm: cannot open file \(ENOENT/);
    });
  });
});
