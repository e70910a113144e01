/**
 * --fair-checks: the model files fAIr's catalogue CI downloads. Beside its schema, fAIr's CI
 * requires of every model item the assets "checkpoint" (the trained weights) and "model" (the
 * ONNX export), each with an http(s) href ("Missing required asset 'model'"), whatever the rule
 * set says of them; it then sends each a HEAD request, which --check-links does here. What the
 * rule set reported at an asset already is not said again.
 */
import type { Issue } from "../../diagnostics/issue.js";
import { describeValue, issue } from "../../diagnostics/messages.js";
import { describePointer, joinPointer } from "../../diagnostics/pointer.js";
import { isObject } from "./hyperparameters-spec.js";

/** The assets fAIr's CI requires of a model item, and what each holds. */
const MODEL_ASSETS = { checkpoint: "the trained weights", model: "the model exported to ONNX" } as const;

const HTTP_URL = /^https?:\/\//;

/** The missing model assets and the hrefs that are no http(s) URL, after the rule set found `base`. */
export function modelAssetIssues(value: unknown, base: readonly Issue[]): Issue[] {
  const assets = isObject(value) ? value.assets : undefined;
  // Assets that are not an object at all are the schema's to report.
  if (!isObject(assets)) return [];
  const reported = new Set(base.map((found) => found.path));
  return Object.entries(MODEL_ASSETS).flatMap(([key, holds]): Issue[] => {
    const path = joinPointer("/assets", key);
    const asset = assets[key];
    if (reported.has(path)) return [];
    if (asset === undefined) {
      return [
        issue("fair-model-asset", path, `${JSON.stringify(key)} is missing from assets; fAIr's CI requires the assets "checkpoint" and "model" of every model item`, {
          expected: key,
          suggestion: `add ${holds} at an http(s) URL as the asset ${JSON.stringify(key)}`,
        }),
      ];
    }
    const href = isObject(asset) ? asset.href : undefined;
    const hrefPath = joinPointer(path, "href");
    // Only a string can be a URL: any other href is the schema's to report, and so is an http(s) pattern it checks.
    if (typeof href !== "string" || HTTP_URL.test(href) || reported.has(hrefPath)) return [];
    return [
      issue("fair-model-asset", hrefPath, `${describePointer(hrefPath)} must be an http(s) URL, which fAIr's CI downloads; found ${describeValue(href)}`, {
        expected: "an http(s) URL",
        actual: href,
      }),
    ];
  });
}
