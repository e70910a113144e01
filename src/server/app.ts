/**
 * The reference server: one fastify instance, each route group an encapsulated plugin with its
 * schemas beside it. Requests are validated with the schemas of `basemodel/api` (Ajv, every
 * error at once, nothing coerced or stripped); every problem is a 422 in the real services' shape.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { schemas, strictSchemas } from "./api/index.js";
import { DEFAULT_MAX_AREA_KM2 } from "./api/snapshot.js";
import { DEFAULT_PLAIN_MAX_AREA_KM2 } from "./api/snapshot-plain.js";
import type { FeatureStore } from "./store/store.js";

import { keepSchemaErrors, reportEveryProblem } from "./http/body-checks.js";
import { checkBodyShape } from "./http/body-shape.js";
import { answerCors, corsPolicy, type CorsOrigins } from "./http/cors.js";
import { registerDocs } from "./routes/docs.js";
import { documentUnavailable, refuseWhileClosing } from "./http/closing.js";
import { answerClientError, answerError, answerNoRoute, answerUnroutable, BodyNotJson, requireHost, RouteMethods } from "./http/error-answers.js";
import { silentLog, type Log } from "./http/log.js";
import { requestLine } from "./http/request-line.js";
import { exportRoutes } from "./routes/exports.js";
import { rawRoutes } from "./routes/raw.js";
import { rawValidationRoutes } from "./routes/raw-validation.js";
import { reportRoutes } from "./routes/report.js";
import { snapshotRoutes } from "./routes/snapshot.js";
import { customRoutes } from "./routes/custom.js";
import { taskRoutes } from "./routes/tasks.js";
import { historyRoutes } from "./routes/history.js";
import { snapshotPlainRoutes } from "./routes/snapshot-plain.js";
import { statsRoutes } from "./routes/stats.js";
import { AccessTokens, authRoutes, type UserEntry } from "./http/access.js";
import { pageRoutes } from "./routes/pages.js";
import { placeRoutes } from "./routes/places.js";
import { statusRoutes } from "./routes/status.js";
import { tileRoutes } from "./routes/tiles.js";
import { firstComeFirstServed } from "./http/turns.js";
import type { ExportsContext, ExportsOptions, RouteContext } from "./routes/context.js";

export interface ServerOptions {
  store: FeatureStore;
  /** Largest request body in bytes; more is a 413. Default 1 MiB. */
  bodyLimit?: number;
  /** Most features /snapshot/plain/ answers with; more is a 422 that points to /snapshot/. Default 5,000. */
  plainFeatureLimit?: number;
  /** Largest area in km² of a /snapshot/plain/ body with geometry; larger is a 422. Default 6, as raw-data-api. */
  plainMaxAreaKm2?: number;
  /** Version shown in the OpenAPI document. */
  version?: string;
  /** Where a line per request and per error goes; default: nowhere. */
  log?: Log;
  /** A request (headers and body) must arrive within this many ms, or it is answered 408 and its connection closed. Default 30 s. */
  requestTimeoutMs?: number;
  /** Its headers within this many ms (at most requestTimeoutMs). Default 10 s. */
  headersTimeoutMs?: number;
  /** Origins whose pages may call the server: "*" (every one, the default, as the real services), a list, or false for none. */
  cors?: CorsOrigins;
  /** Refuse request members the schemas do not name (422), instead of ignoring them as the real services do. Default false. */
  strictRequests?: boolean;
  /** Asynchronous exports (POST /snapshot/, task status, /exports/); without it those routes are absent. */
  exports?: ExportsOptions;
  /**
   * Who may send which `access-token` (GET /auth/me/; a staff role for what upstream keeps to
   * staff). Without it every route is open and no token is anyone's.
   */
  users?: readonly UserEntry[];
  /** Bytes of vector tiles kept in memory (GET /tiles/...); 0 keeps none. Default 64 MiB. */
  tileCacheBytes?: number;
}


export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const DEFAULT_PLAIN_FEATURE_LIMIT = 5000;
export const DEFAULT_TILE_CACHE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Node looks for requests that are late at most this often. */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;
/** Export file names carry the caller's fileName: longer than fastify's default 100 for a path parameter. */
const MAX_PARAM_LENGTH = 1000;

export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const log = options.log ?? silentLog;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeoutMs = Math.min(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeoutMs);
  const routes = new RouteMethods();
  const cors = corsPolicy(options.cors ?? "*");
  const app = Fastify({
    bodyLimit,
    // A client that trickles its request would otherwise hold its connection for ever.
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL_MS, headersTimeoutMs),
      // requireHost answers it in our shape; Node's own 400 has no body.
      requireHostHeader: false,
    },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: answerClientError(log, { requestTimeoutMs, headersTimeoutMs }, cors),
    frameworkErrors: answerUnroutable(log, cors),
    // refuseWhileClosing answers in our shape.
    return503OnClosing: false,
    // discriminator: a GeoJSON area is checked against the one shape its `type` names (src/server/api/snapshot.ts).
    ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: false, useDefaults: false, verbose: true, strict: false, discriminator: true } },
  });
  // Answers are plain JSON: the response schemas document the wire and are checked by the tests,
  // but must never drop a member the way a schema-driven serializer would.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // Every body is read as JSON whatever its content type: `curl -d` sends form encoding by
  // default, and a caller deserves "not JSON" for a body that is not, not a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(new BodyNotJson((error as Error).message), undefined);
    }
  });

  for (const schema of options.strictRequests ? strictSchemas() : schemas) app.addSchema(schema);

  app.addHook("onRoute", (route) => routes.add(route.url, route.method));
  app.addHook("onRoute", keepSchemaErrors);
  app.addHook("onRoute", documentUnavailable);
  // First: every answer carries the CORS headers, that of a request without Host included.
  app.addHook("onRequest", answerCors(cors));
  app.addHook("onRequest", requireHost);
  refuseWhileClosing(app);
  if (log.enabled("info")) {
    app.addHook("onResponse", (request, reply, done) => {
      log.info(requestLine(request, reply));
      done();
    });
  }

  // Before the schemas or any other hook walk the body: see body-shape.ts.
  app.addHook("preValidation", checkBodyShape);
  // After the body is read and checked, right before the handler: see turns.ts.
  app.addHook("preHandler", firstComeFirstServed());
  // In turn too: a route's checks may take a while (GEOS on a large polygon).
  app.addHook("preHandler", reportEveryProblem);

  app.setErrorHandler(answerError(log, bodyLimit));
  app.setNotFoundHandler(answerNoRoute(routes));
  await registerDocs(app, options.version ?? "0.0.0");
  const context: RouteContext = {
    store: options.store,
    plainFeatureLimit: options.plainFeatureLimit ?? DEFAULT_PLAIN_FEATURE_LIMIT,
    plainMaxAreaKm2: options.plainMaxAreaKm2 ?? DEFAULT_PLAIN_MAX_AREA_KM2,
  };
  const tokens = options.users === undefined ? undefined : new AccessTokens(options.users);
  const maxAreaKm2 = options.exports?.maxAreaKm2 ?? DEFAULT_MAX_AREA_KM2;
  for (const prefix of ["/latest", "/v1"]) {
    await app.register(authRoutes, { prefix, tokens });
    await app.register(statusRoutes, { prefix, ...context });
    await app.register(snapshotPlainRoutes, { prefix, ...context });
    await app.register(placeRoutes, { prefix, ...context, maxAreaKm2 });
  }
  if (options.exports) {
    const exportsContext: ExportsContext = { ...options.exports, maxAreaKm2, tokens };
    for (const prefix of ["/latest", "/v1"]) {
      await app.register(snapshotRoutes, { prefix, ...exportsContext });
      await app.register(customRoutes, { prefix, ...exportsContext, store: options.store });
      await app.register(taskRoutes, { prefix, ...exportsContext });
    }
    await app.register(exportRoutes, { prefix: "/exports", ...exportsContext });
    // Not raw-data-api's: outside its prefixes, as /exports/ is.
    await app.register(historyRoutes, exportsContext);
  }
  await app.register(rawRoutes, { prefix: "/raw", ...context });
  await app.register(rawValidationRoutes, { prefix: "/raw-validation", ...context });
  await app.register(statsRoutes, { prefix: "/stats", ...context });
  await app.register(reportRoutes, { prefix: "/report", ...context });
  await app.register(pageRoutes, {
    exports: options.exports !== undefined,
    maxAreaKm2,
    plainMaxAreaKm2: context.plainMaxAreaKm2,
    accessTokens: tokens !== undefined,
  });
  await app.register(tileRoutes, {
    ...context,
    maxAreaKm2,
    publicUrl: options.exports?.publicUrl,
    tileCacheBytes: options.tileCacheBytes ?? DEFAULT_TILE_CACHE_BYTES,
  });
  return app;
}


