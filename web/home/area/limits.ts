/** An area's size against the server's limits, in words, while it is drawn. */
import type { PageSettings } from "basemodel/api";
import { formatKm2 } from "../../shared/format.js";

export interface LimitCheck {
  text: string;
  /** Over the limit: the request would be refused. */
  over: boolean;
}

export function exportLimit(km2: number, settings: PageSettings): LimitCheck {
  const limit = formatKm2(settings.maxAreaKm2);
  return km2 > settings.maxAreaKm2
    ? { over: true, text: `Too large to export: the limit is ${limit}. Draw a smaller area, or split it.` }
    : { over: false, text: `Within the export limit of ${limit}.` };
}

export function plainLimit(km2: number, settings: PageSettings): LimitCheck {
  const limit = formatKm2(settings.plainMaxAreaKm2);
  return km2 > settings.plainMaxAreaKm2
    ? { over: true, text: `Above the ${limit} that POST /latest/snapshot/plain/ answers at once: export it instead.` }
    : { over: false, text: `Small enough for POST /latest/snapshot/plain/ (up to ${limit}), which answers at once.` };
}
