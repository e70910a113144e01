/**
 * Request bodies written in YAML (HOT keeps its export configurations so), for the routes that
 * take them. JSON is YAML, so a JSON body reads the same. An alias may expand 100 times, not a
 * billion; warnings (an unknown tag) stay off stderr; a text nested past the YAML reader's stack
 * is the too_deep 422 every route gives a body nested too deeply.
 */
import type { FastifyInstance } from "fastify";
import { parse } from "yaml";
import { MAX_BODY_DEPTH } from "../api/limits.js";
import { BodyNotYaml } from "./error-answers.js";
import { problem } from "./problems.js";

/** Reads every body of `app` (an encapsulated context: the other routes keep reading JSON) as YAML. */
export function readBodiesAsYaml(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, parse(text, { logLevel: "error", maxAliasCount: 100 }));
    } catch (error) {
      const message = (error as Error).message.split("\n")[0]!;
      // The reader recurses as deep as the text nests: what overflows its stack is far deeper than any request.
      if (message.includes("Maximum call stack size exceeded")) done(problem(["body"], `the body nests far more than ${MAX_BODY_DEPTH} levels deep; no request needs more than 6`, "too_deep"), undefined);
      else done(new BodyNotYaml(message), undefined);
    }
  });
}
