/**
 * OpenAPI 3 at /openapi.json, generated from the route schemas, and Swagger UI at /docs. The UI
 * assets ship inside @fastify/swagger-ui, so the docs work with no network.
 */
import type { FastifyInstance } from "fastify";

/** Answers that are files, not JSON: named here so that every answer in the document names its schema. */
const fileSchemas = [
  { $id: "ZipFile", type: "string", format: "binary", description: "A zip archive: the export file, clipping_boundary.geojson and Readme.txt" },
  { $id: "CsvText", type: "string", description: "RFC 4180 CSV: a header row, then the rows of the JSON answer; lists joined by ;" },
];

export async function registerDocs(app: FastifyInstance, version: string): Promise<void> {
  for (const schema of fileSchemas) app.addSchema(schema);
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([import("@fastify/swagger"), import("@fastify/swagger-ui")]);
  await app.register(swagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "basemodel reference server",
        version,
        description:
          "HOT's raw data export API (/latest, also /v1) and feature query API (/raw, /report) on OpenStreetMap data in an embedded store. " +
          "Data © OpenStreetMap contributors, ODbL 1.0.",
      },
      tags: [
        { name: "raw data export", description: "HOT raw-data-api: status and snapshots" },
        { name: "feature query", description: "Underpass-style feature queries" },
        { name: "data quality reports", description: "Underpass-style data quality reports, as JSON or CSV" },
      ],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: "/docs", staticCSP: true });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
