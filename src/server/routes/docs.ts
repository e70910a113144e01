/**
 * OpenAPI 3 at /openapi.json, generated from the route schemas, and Swagger UI at /docs. The UI
 * assets ship inside @fastify/swagger-ui, so the docs work with no network.
 */
import type { FastifyInstance } from "fastify";
import { schemas } from "../api/index.js";

/** Answers that are files, not JSON: named here so that every answer in the document names its schema. */
const fileSchemas = [
  { $id: "ZipFile", type: "string", format: "binary", description: "A zip archive: the export file, clipping_boundary.geojson and Readme.txt" },
  { $id: "ExportFile", type: "string", format: "binary", description: "The bare export file of a request with bindZip false: GeoJSON or FlatGeobuf" },
  { $id: "CsvText", type: "string", description: "RFC 4180 CSV: a header row, then the rows of the JSON answer; lists joined by ;" },
  { $id: "VectorTile", type: "string", format: "binary", description: "A Mapbox Vector Tile 2.1 (protocol buffers, not compressed): the layers of /tiles.json" },
];

/**
 * OpenAPI 3.0 keeps one example per schema: the request bodies that name a schema by $ref get
 * all its examples as the operation's, which Swagger UI offers in a list.
 */
const bodyExamples = new Map<string, readonly unknown[]>(
  schemas.flatMap((schema) => ("examples" in schema ? [[`#/components/schemas/${schema.$id}`, schema.examples]] : [])),
);

interface Operations {
  [method: string]: { requestBody?: { content?: Record<string, { schema?: { $ref?: string }; examples?: unknown }> } };
}

function withBodyExamples<Document extends { paths?: object }>(document: Document): Document {
  for (const operations of Object.values((document.paths ?? {}) as Record<string, Operations>)) {
    for (const operation of Object.values(operations)) {
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        const examples = bodyExamples.get(media.schema?.$ref ?? "");
        if (examples) media.examples = Object.fromEntries(examples.map((value, index) => [`example ${index + 1}`, { value }]));
      }
    }
  }
  return document;
}

/**
 * The docs page's Content Security Policy: @fastify/swagger-ui's own, but for two directives.
 * Styles may be inline: Swagger UI applies inline styles as it renders, which the plugin's
 * `style-src 'self' https:` blocked (the browser's console said so on every load); scripts stay
 * 'self' alone. And no upgrade-insecure-requests: this server speaks plain HTTP, and a browser
 * that reached /docs by a host name would have asked for the page's own scripts over HTTPS.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "font-src 'self' https: data:",
  "frame-ancestors 'self'",
  "img-src 'self' data: validator.swagger.io",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join("; ");

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
          "HOT's raw data export API (/latest, also /v1) and feature query API (/raw, /raw-validation, /stats, /report) on OpenStreetMap data in an embedded store. " +
          "Data © OpenStreetMap contributors, ODbL 1.0.",
      },
      components: { securitySchemes: { accessToken: { type: "apiKey", in: "header", name: "access-token", description: "A token of the users file given to `basemodel serve --users`" } } },
      tags: [
        { name: "raw data export", description: "HOT raw-data-api: status and snapshots" },
        { name: "exports history", description: "This server's own: the exports it remembers, to list, download and run again" },
        { name: "feature query", description: "Underpass-style feature queries and counts, both generations of its API (2023 and 2024)" },
        { name: "data quality reports", description: "Underpass-style data quality reports, as JSON or CSV" },
        { name: "pages", description: "What the server's web pages (GET /) read beside the API" },
        { name: "map", description: "The store as a map: vector tiles, their TileJSON, and the features of each layer in an area" },
      ],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (document) => ("openapiObject" in document ? withBodyExamples(document.openapiObject) : document.swaggerObject),
  });
  await app.register(swaggerUi, { routePrefix: "/docs", staticCSP: DOCS_CSP });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
