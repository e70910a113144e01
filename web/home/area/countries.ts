/** The countries of the store whose name holds what is typed (GET /latest/countries/?q=). */
import type { CountryCollection } from "basemodel/api";
import { getJson } from "../../shared/http.js";

export type Country = CountryCollection["features"][number];

export async function findCountries(text: string, signal: AbortSignal): Promise<Country[]> {
  const found = await getJson<CountryCollection>(`/latest/countries/?q=${encodeURIComponent(text.trim())}`, signal);
  return found.features;
}
