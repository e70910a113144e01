/**
 * The filter members every feature query and count of the Underpass API shares (area, tags,
 * hashtag, dateFrom, dateTo, status), read into a FeatureQuery's filters. An empty string is no
 * filter, as underpass-ui sends its unset fields (and as the real service read them); so is a
 * null area, which the 2024 UI sends before its map has moved.
 */
import type { RawFilters } from "../api/raw.js";
import type { FeatureQuery } from "../query/types.js";
import type { ChangesetFilter } from "../store/store.js";
import { areaFromRing } from "./area.js";
import { parseUtcDateTime } from "./dates.js";
import { parseTagTerms } from "./tag-terms.js";

/** What dateFrom and dateTo compare with: the changeset's creation (2023 routes) or its closing (2024 routes). */
export type ChangesetTime = "created" | "closed";

export type RawQueryFilters = Pick<FeatureQuery, "area" | "tags" | "changesets" | "status">;

/** Runs `use` with the filters `body` asks for, then frees what the area's exact test holds. */
export async function withRawFilters<T>(body: RawFilters, time: ChangesetTime, use: (filters: RawQueryFilters) => Promise<T>): Promise<T> {
  const area = await areaFromRing(given(body.area), ["body", "area"]);
  try {
    const tags = parseTagTerms(body.tags, ["body", "tags"]);
    return await use({ area, ...(tags && { tags }), changesets: changesetFilter(body, time), status: given(body.status) });
  } finally {
    area.dispose?.();
  }
}

function changesetFilter(body: RawFilters, time: ChangesetTime): ChangesetFilter {
  const dateFrom = given(body.dateFrom);
  const dateTo = given(body.dateTo);
  const from = dateFrom === undefined ? undefined : parseUtcDateTime(dateFrom, ["body", "dateFrom"]);
  const to = dateTo === undefined ? undefined : parseUtcDateTime(dateTo, ["body", "dateTo"], "to");
  const hashtag = given(body.hashtag);
  return time === "created" ? { hashtag, createdFrom: from, createdTo: to } : { hashtag, closedFrom: from, closedTo: to };
}

/** The member's text, or undefined when it is absent, null or blank: no filter. */
function given<T extends string>(text: T | null | undefined): T | undefined {
  return text === null || text === undefined || text.trim() === "" ? undefined : text;
}
