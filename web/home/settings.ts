/** The server's limits and formats (GET /page/settings.json), read once as the page starts. */
import type { PageSettings } from "basemodel/api";
import { getJson } from "../shared/http.js";

export function readSettings(): Promise<PageSettings> {
  return getJson<PageSettings>("/page/settings.json");
}
