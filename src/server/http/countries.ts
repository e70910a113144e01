/**
 * The countries of the store: upstream keeps them in a table of their own; here they are the
 * store's boundary relations of admin_level 2 whose geometry is an area, found by tags like any
 * feature. For GET /countries/, and for the requests that name a country by `iso3`.
 */
import type { ValidationError } from "../api/errors.js";
import type { Country } from "../api/places.js";
import type { PolygonalGeometry } from "../api/snapshot.js";
import { EVERYWHERE } from "../query/everywhere.js";
import type { TagFilter } from "../../model/query.js";
import type { FeatureStore } from "../store/store.js";
import type { OsmFeature } from "../../model/features.js";

const COUNTRY_TAGS: TagFilter = {
  join: "and",
  conditions: [
    { key: "boundary", values: ["administrative"] },
    { key: "admin_level", values: ["2"] },
  ],
};

function country(feature: OsmFeature): Country {
  const { tags } = feature;
  const name = tags["name:en"] ?? tags["name"] ?? tags["int_name"] ?? "";
  return { type: "Feature", id: feature.osmId, geometry: feature.geometry, properties: { cid: feature.osmId, name, iso3: tags["ISO3166-1:alpha3"]?.toLowerCase() ?? null } };
}

/** Every country of the store, by id. */
export async function countries(store: FeatureStore): Promise<Country[]> {
  const found: Country[] = [];
  for await (const feature of store.candidates("relations", EVERYWHERE, { tags: COUNTRY_TAGS, geometry: "polygon" })) found.push(country(feature));
  return found;
}

/** The area of the country with this ISO 3166-1 alpha-3 code (any case), or undefined when the store has none. */
export async function countryArea(store: FeatureStore, iso3: string): Promise<PolygonalGeometry | undefined> {
  const code = iso3.toLowerCase();
  return (await countries(store)).find((found) => found.properties.iso3 === code)?.geometry as PolygonalGeometry | undefined;
}

/** The 422 of an iso3 that names no country of the store. */
export function unknownCountry(iso3: string, loc: Array<string | number>): ValidationError {
  return { loc, msg: `no country of this server's data has the ISO 3166-1 alpha-3 code ${JSON.stringify(iso3)}; GET /countries/ lists those it has`, type: "value_error" };
}
