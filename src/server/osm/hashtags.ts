/**
 * The hashtags of a changeset, from its `hashtags` tag and its `comment`, as iD (and, after
 * it, ohsome) finds them:
 *
 * - the `hashtags` tag is a `;`-separated list (iD writes `#hotosm-project-123;#mapathon`);
 *   each entry is trimmed and a leading `#` dropped, so entries written without one count too;
 * - in the comment, a hashtag is `#` followed by characters other than white space, general
 *   or supplemental punctuation (U+2000–U+206F, U+2E00–U+2E7F) and the ASCII characters
 *   `\ ' ! " # $ % ( ) * , . / : ; < = > ? @ [ ] ^ ` { | } ~`. Letters and digits of any
 *   script, `_`, `-`, `+` and `&` belong to the hashtag, so `#hotosm-project-123,` gives
 *   `hotosm-project-123`. URLs are removed first, so the `#map=…` of a link is no hashtag.
 *
 * The result has no `#`, lists the tag's hashtags and then the comment's in order of
 * appearance, and keeps only the first spelling of hashtags that differ only in case.
 */
import type { OsmTags } from "../../model/osm.js";

const COMMENT_HASHTAG = /#([^\s\u2000-\u206F\u2E00-\u2E7F\\'!"#$%()*,./:;<=>?@[\]^`{|}~]+)/gu;
const URL = /http\S*/gu;

export function changesetHashtags(tags: Readonly<OsmTags>): string[] {
  const fromTag = (tags["hashtags"] ?? "").split(";").map((entry) => entry.trim().replace(/^#/u, ""));
  const fromComment = Array.from((tags["comment"] ?? "").replace(URL, "").matchAll(COMMENT_HASHTAG), (match) => match[1] ?? "");
  const seen = new Set<string>();
  const hashtags: string[] = [];
  for (const hashtag of [...fromTag, ...fromComment]) {
    const key = hashtag.toLowerCase();
    if (hashtag === "" || seen.has(key)) continue;
    seen.add(key);
    hashtags.push(hashtag);
  }
  return hashtags;
}
