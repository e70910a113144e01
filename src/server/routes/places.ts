/**
 * raw-data-api's lookups: the countries (GET /countries/, /countries/{cid}/), the features of
 * an OSM id (GET /osm_id/) and the buildings and roads of an area (POST /stats/polygon/).
 * The countries are the store's own (src/server/http/countries.ts).
 */
import type { FastifyPluginAsync } from "fastify";
import type { ValidationError } from "../api/errors.js";
import { OSM_ID_PATTERN, type CountriesQuery, type CountryCollection, type OsmFeatureCollection, type OsmIdQuery, type StatsRequestParams } from "../api/places.js";
import type { AreaStats } from "../api/snapshot.js";
import { areaStats } from "../exports/area-stats.js";
import type { FeatureStore } from "../store/store.js";
import type { RouteContext } from "./context.js";
import type { Refused } from "../http/body-checks.js";
import { countries, countryArea, unknownCountry } from "../http/countries.js";
import { zonelessTime } from "../http/dates.js";
import { exportAreaProblems, polygonalArea } from "../http/export-area.js";
import { areaOf } from "../../model/query.js";

export interface PlacesContext extends RouteContext {
  /** The largest area /stats/polygon/ counts in (the export limit: it reads as much). */
  maxAreaKm2: number;
}


const collection = <Features>(features: Features) => ({ type: "FeatureCollection" as const, features });

/** Either member names the area; an iso3 must name a country of the store. */
async function statsProblems(store: FeatureStore, body: StatsRequestParams, maxAreaKm2: number, refused: Refused): Promise<ValidationError[]> {
  if (refused(["body", "geometry"]) || refused(["body", "iso3"])) return [];
  if (body.geometry !== undefined) return exportAreaProblems(body.geometry, ["body", "geometry"], { km2: maxAreaKm2, advice: "for the statistics of one request; split it into smaller areas" });
  if (body.iso3 === undefined) return [{ loc: ["body"], msg: 'give the area as "geometry" (a Polygon, MultiPolygon, Feature or FeatureCollection) or a country as "iso3"', type: "value_error" }];
  return (await countryArea(store, body.iso3)) === undefined ? [unknownCountry(body.iso3, ["body", "iso3"])] : [];
}

export const placeRoutes: FastifyPluginAsync<PlacesContext> = async (app, { store, maxAreaKm2 }) => {
  app.get<{ Querystring: CountriesQuery }>(
    "/countries/",
    {
      schema: {
        tags: ["raw data export"],
        summary: "Countries whose name holds q: the store's boundary relations of admin_level 2",
        querystring: { $ref: "CountriesQuery#" },
        response: { 200: { $ref: "CountryCollection#" }, 422: { $ref: "HTTPValidationError#" } },
      },
    },
    async (request): Promise<CountryCollection> => {
      const q = (request.query.q ?? "").trim().toLowerCase();
      return collection((await countries(store)).filter((found) => found.properties.name.toLowerCase().includes(q)));
    },
  );

  app.get<{ Params: { cid: string } }>(
    "/countries/:cid/",
    {
      schema: {
        tags: ["raw data export"],
        summary: "One country, by its id (cid)",
        params: { type: "object", required: ["cid"], properties: { cid: { type: "string", pattern: OSM_ID_PATTERN, description: "The country's id: its boundary relation's OSM id" } } },
        response: { 200: { $ref: "CountryCollection#" }, 404: { $ref: "HTTPError#" }, 422: { $ref: "HTTPValidationError#" } },
      },
    },
    async (request, reply) => {
      const found = (await countries(store)).filter((candidate) => candidate.id === Number(request.params.cid));
      if (found.length === 0) return reply.code(404).send({ detail: `no country with cid ${request.params.cid}; GET /countries/ lists them` });
      return collection(found);
    },
  );

  app.get<{ Querystring: OsmIdQuery }>(
    "/osm_id/",
    {
      schema: {
        tags: ["raw data export"],
        summary: "The features of an OSM id, with their tags, changeset and time",
        querystring: { $ref: "OsmIdQuery#" },
        response: { 200: { $ref: "OsmFeatureCollection#" }, 422: { $ref: "HTTPValidationError#" } },
      },
    },
    async (request): Promise<OsmFeatureCollection> => {
      const found = await store.featuresWithId(Number(request.query.osm_id));
      return collection(
        found.map(({ table, feature }) => ({
          type: "Feature",
          id: feature.osmId,
          geometry: feature.geometry,
          properties: { osm_id: feature.osmId, osm_type: table, tags: feature.tags, changeset: feature.changeset, timestamp: feature.timestamp === null ? null : zonelessTime(feature.timestamp) },
        })),
      );
    },
  );

  app.post<{ Body: StatsRequestParams }>(
    "/stats/polygon/",
    {
      schema: {
        tags: ["raw data export"],
        summary: "Buildings and roads of an area (or a country), counted from this server's data",
        body: { $ref: "StatsRequestParams#" },
        response: { 200: { $ref: "AreaStats#" }, 422: { $ref: "HTTPValidationError#" } },
      },
      config: { checks: (body: StatsRequestParams, refused) => statsProblems(store, body, maxAreaKm2, refused) },
    },
    async (request): Promise<AreaStats> => {
      const { geometry, iso3 } = request.body;
      const polygon = geometry !== undefined ? await polygonalArea(geometry) : (await countryArea(store, iso3!))!;
      const data = await store.snapshot();
      try {
        return await areaStats(data, areaOf(polygon));
      } finally {
        await data.close();
      }
    },
  );
};
