/**
 * basemodel validate --stac --fetch: before each file is validated, the extension schemas its
 * items name that are neither bundled nor mapped are downloaded into the cache (src/validator/engine/fetch-schemas.ts),
 * each URL once across the run. A download that fails is said once on standard error; the items
 * that name it get the stac-extension-unknown warning.
 */
import type { EngineSettings } from "../validator/item/settings.js";
import { documentItems, type DocumentFormat } from "../validator/engine/text.js";
import { SchemaFetcher } from "../validator/engine/fetch-schemas.js";
import type { Io } from "./io.js";

export function schemaFetchStep(settings: Readonly<EngineSettings>, io: Io): (bytes: Buffer, format: DocumentFormat) => Promise<void> {
  const fetcher = new SchemaFetcher(settings);
  return async (bytes, format) => {
    const { failed } = await fetcher.fetchFor(documentItems(bytes, format).map((item) => item.value));
    for (const { url, reason } of failed) io.stderr.write(`basemodel: cannot download ${url}: ${reason}; the extension is not checked\n`);
  };
}
