import { describe, expect, it } from "vitest";
import { changesetHashtags } from "../../../src/server/osm/hashtags.js";

describe("changesetHashtags", () => {
  it("splits the hashtags tag at ;, trimming entries and dropping the # (and empty entries)", () => {
    expect(changesetHashtags({ hashtags: "#hotosm-project-123; #mapathon;;youthmappers ;#" })).toEqual([
      "hotosm-project-123",
      "mapathon",
      "youthmappers",
    ]);
  });

  it("finds #words in the comment, stopping at white space and punctuation", () => {
    const comment = "Buildings (#hotosm-project-123), roads #roads. #a_b;#c/d #e:f #g!h [#i] #j\u2014k #Ünïcode #番号 end#mid";
    expect(changesetHashtags({ comment })).toEqual(["hotosm-project-123", "roads", "a_b", "c", "e", "g", "i", "j", "Ünïcode", "番号", "mid"]);
  });

  it("keeps - _ + & inside a hashtag, as iD does", () => {
    expect(changesetHashtags({ comment: "#a-b #c_d #e+f #g&h" })).toEqual(["a-b", "c_d", "e+f", "g&h"]);
  });

  it("ignores the #fragment of a URL and a lone #", () => {
    expect(changesetHashtags({ comment: "see https://www.openstreetmap.org/#map=19/1/2 and http://x.org/#top # done" })).toEqual([]);
  });

  it("lists the tag's hashtags, then the comment's, each once in its first spelling whatever the case", () => {
    const tags = { hashtags: "#Mapathon;#hotosm-project-1;#MAPATHON", comment: "#mapathon #New #hotosm-PROJECT-1 #new" };
    expect(changesetHashtags(tags)).toEqual(["Mapathon", "hotosm-project-1", "New"]);
  });

  it("gives [] without hashtags", () => {
    expect(changesetHashtags({})).toEqual([]);
    expect(changesetHashtags({ comment: "Added buildings", hashtags: "" })).toEqual([]);
  });
});
