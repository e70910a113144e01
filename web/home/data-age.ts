/**
 * How old the data is (GET /latest/status/), always in sight, asked again every minute. When the
 * server cannot say, a banner says that the data service cannot be reached and what still works.
 */
import type { StatusResponse } from "basemodel/api";
import { el, replaceChildren } from "../shared/dom.js";
import { formatUtc, timeAgo } from "../shared/format.js";
import { getJson, ServerError } from "../shared/http.js";

const EVERY_MS = 60_000;

/** "2025-01-10 11:40:00+00:00" as a date. */
const dateOf = (lastUpdated: string) => new Date(lastUpdated.replace(" ", "T"));

export function watchDataAge(age: HTMLElement, banner: HTMLElement): void {
  const check = async () => {
    try {
      const { lastUpdated } = await getJson<StatusResponse>("/latest/status/");
      const updated = dateOf(lastUpdated);
      replaceChildren(age, "Data as of ", el("time", { datetime: updated.toISOString() }, formatUtc(updated)), ` (${timeAgo(updated)})`);
      banner.hidden = true;
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      replaceChildren(age, "Data age unknown");
      replaceChildren(
        banner,
        el("strong", {}, "The data service cannot be reached"),
        ` (${error.status === undefined ? error.message : `GET /latest/status/ answered ${error.status}: ${error.message}`}). `,
        "The map's data, counts, exports and data quality findings need it and may fail. " +
          "Still working: drawing, uploading and measuring an area, the request and its curl command, and the downloads of finished exports. " +
          "The page asks again every minute.",
      );
      banner.hidden = false;
    }
  };
  void check();
  setInterval(() => void check(), EVERY_MS);
}
