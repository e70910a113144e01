import type { RulesOption } from "./rule-sets.js";
import type { SchemaSettings } from "./schema.js";

/** Everything that decides how items are judged: the validator's options, checked and complete. */
export interface EngineSettings extends SchemaSettings {
  /** Every warning counts as an error. */
  strict: boolean;
  /** At most this many issues per item are returned; the rest are counted in `omitted`. */
  maxErrors: number;
  /** Also check core STAC and every extension the item lists, with the bundled official schemas. */
  stac: boolean;
  /** With stac: local copies of extension schemas, by URL or URL prefix (ending in "/"): absolute file or folder paths. */
  schemaMap: Readonly<Record<string, string>>;
  /** With stac: the folder of downloaded extension schemas (fetchSchemas), read for URLs neither bundled nor mapped. */
  schemaCache?: string;
  /** The rule set, or "auto" (the one each item declares); undefined: the default, and results do not name it. */
  rules?: RulesOption;
  /** Also check what fAIr's catalogue CI checks beyond its schema (keywords, fair:hyperparameters_spec). */
  fairChecks: boolean;
}
