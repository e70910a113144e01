/**
 * The features an export plan chooses, as the export writes them: part by part (the real
 * service's order), table by table, each by osm_id; geometry and properties as the plan says.
 */
import { tableMatches } from "../query/find.js";
import type { AreaFilter } from "../../model/query.js";
import type { FeatureStore } from "../store/store.js";
import type { ExportPlan } from "./plan.js";
import type { ExportFeature } from "../formats/types.js";

export async function* planMatches(
  store: Pick<FeatureStore, "candidates">,
  area: AreaFilter,
  plan: ExportPlan,
  onRead?: () => void,
): AsyncGenerator<ExportFeature> {
  for (const part of plan.parts) {
    for (const table of part.tables) {
      const query = { area, relation: plan.relation, tags: part.tags, geometry: part.kind };
      for await (const { feature } of tableMatches(store, query, table, { onRead })) yield { geometry: plan.geometry(feature), properties: part.properties(feature) };
    }
  }
}
