/** The output formats of `basemodel validate`, by the name --format takes. */
import { formatGithub } from "./github.js";
import { formatJson } from "./json.js";
import { formatJunit } from "./junit.js";
import { formatSarif } from "./sarif.js";
import { formatText } from "./text.js";
import type { Formatter } from "./types.js";

export const formats = {
  text: formatText,
  json: formatJson,
  github: formatGithub,
  sarif: formatSarif,
  junit: formatJunit,
} as const satisfies Record<string, Formatter>;

export type FormatName = keyof typeof formats;

/** The formatter of a format name, or undefined for a name that is not one (a user's typo). */
export function formatterFor(name: string): Formatter | undefined {
  return Object.hasOwn(formats, name) ? formats[name as FormatName] : undefined;
}

export { formatStepSummary } from "./github.js";
export type { FileReport, FormatContext, Formatter, RunReport, RunSummary } from "./types.js";
