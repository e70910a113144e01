/**
 * The output formats of `basemodel validate`, by the name --format takes. Each formatter is
 * loaded only when asked for: a run pays for the one format it prints (chalk only for text in colour).
 */
import type { Formatter } from "./types.js";
import { loadColours, NO_COLOURS, type Paint } from "./paint.js";

const loaders = {
  text: async () => (await import("./text.js")).formatText,
  json: async () => (await import("./json.js")).formatJson,
  github: async () => (await import("./github.js")).formatGithub,
  sarif: async () => (await import("./sarif.js")).formatSarif,
  junit: async () => (await import("./junit.js")).formatJunit,
} as const satisfies Record<string, () => Promise<Formatter>>;

export type FormatName = keyof typeof loaders;

export const formatNames = Object.keys(loaders) as FormatName[];

export function isFormatName(name: string): name is FormatName {
  return Object.hasOwn(loaders, name);
}

/** Whether a format shows the files' text (the text format's code frames): the others never read a report's source, so a run need not keep it. */
export function showsSource(name: string): boolean {
  return name === "text";
}

/** The styles a format prints with: colours only for the text format of a run that colours (only then is chalk loaded). */
export async function paintFor(name: string, color: boolean): Promise<Paint> {
  return name === "text" && color ? loadColours() : NO_COLOURS;
}

/** The formatter of a format name, or undefined for a name that is not one (a user's typo). */
export async function loadFormatter(name: string): Promise<Formatter | undefined> {
  return isFormatName(name) ? loaders[name]() : undefined;
}

export type { FileReport, FormatContext, Formatter, RunReport, RunSummary } from "./types.js";
