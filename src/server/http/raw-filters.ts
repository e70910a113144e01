/**
 * The filter members every feature query and count of the Underpass API shares (area, tags,
 * hashtag, dateFrom, dateTo, status), read into a FeatureQuery's filters. An empty string is no
 * filter, as underpass-ui sends its unset fields (and as the real service read them); so is a
 * null area, which the 2024 UI sends before its map has moved.
 */
import type { ValidationError } from "../api/errors.js";
import type { RawFilters } from "../api/raw.js";
import type { FeatureQuery } from "../../model/query.js";
import type { ChangesetFilter } from "../../model/features.js";
import { areaFromRing } from "./area.js";
import type { BodyCheck, Refused } from "./body-checks.js";
import { parseUtcDateTime } from "./dates.js";
import { BodyReader, RequestProblem } from "./problems.js";
import { parseTagTerms } from "./tag-terms.js";

/** What dateFrom and dateTo compare with: the changeset's creation (2023 routes) or its closing (2024 routes). */
export type ChangesetTime = "created" | "closed";

export type RawQueryFilters = Pick<FeatureQuery, "area" | "tags" | "changesets" | "status">;

const NOTHING_REFUSED: Refused = () => false;

/**
 * The filters `body` asks for, or every problem they have (the area's, the tags', each date's).
 * Members the schema refused are not read.
 */
async function readRawFilters(body: RawFilters, time: ChangesetTime, refused: Refused): Promise<{ filters: RawQueryFilters } | { problems: ValidationError[] }> {
  // Every member is read through the reader, so that one the schema refused (of any type) is left alone.
  const reader = new BodyReader(refused);
  const area = await reader.member("area", (loc) => areaFromRing(given(body.area), loc));
  const tags = await reader.member("tags", (loc) => parseTagTerms(body.tags, loc));
  const date = (member: "dateFrom" | "dateTo", bound: "from" | "to") =>
    reader.member(member, (loc) => {
      const text = given(body[member]);
      return text === undefined ? undefined : parseUtcDateTime(text, loc, bound);
    });
  const from = await date("dateFrom", "from");
  const to = await date("dateTo", "to");
  const hashtag = await reader.member("hashtag", () => given(body.hashtag));
  const status = await reader.member("status", () => given(body.status));
  if (reader.problems.length > 0 || area === undefined) return { problems: reader.problems };
  const changesets: ChangesetFilter = time === "created" ? { hashtag, createdFrom: from, createdTo: to } : { hashtag, closedFrom: from, closedTo: to };
  return { filters: { area, ...(tags && { tags }), changesets, status } };
}

/** The filters `body` asks for; a 422 with every problem of the filters. */
export async function rawQueryFilters(body: RawFilters, time: ChangesetTime): Promise<RawQueryFilters> {
  const read = await readRawFilters(body, time, NOTHING_REFUSED);
  if ("problems" in read) throw new RequestProblem(read.problems);
  return read.filters;
}

/** The problems rawQueryFilters would answer, for a 422 that also names the schema's. */
export function rawFilterProblems(time: ChangesetTime): BodyCheck<RawFilters> {
  return async (body, refused) => {
    const read = await readRawFilters(body, time, refused);
    return "problems" in read ? read.problems : [];
  };
}

/** The member's text, or undefined when it is absent, null or blank: no filter. */
function given<T extends string>(text: T | null | undefined): T | undefined {
  return text === null || text === undefined || text.trim() === "" ? undefined : text;
}
