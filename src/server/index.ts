/** `basemodel/server`: the reference server, to embed or to start. */
export { createServer, DEFAULT_BODY_LIMIT, DEFAULT_PLAIN_FEATURE_LIMIT, type ServerOptions } from "./app.js";
export { RequestProblem } from "./http/problems.js";
