/**
 * Validating a document in the browser with the library's own build, as `basemodel validate`
 * validates a file: what the options need is loaded first (loadFor: the compiled STAC schemas only
 * with --stac, fAIr's other rule sets only when chosen), then each item is checked and its
 * problems ordered by position, as the command line orders them (src/cli/file-report.ts).
 */
import { byPosition, loadFor, SourceLines, validateDocumentText, type ItemResult, type ValidatorOptions } from "basemodel";
import type { DocumentFormat, SourceDocument } from "./documents.js";

export interface DocumentReport {
  document: SourceDocument;
  format: DocumentFormat;
  items: ItemResult[];
  /** The text the problems' lines and columns are in, for their code frames. */
  source: SourceLines;
}

export async function validateDocument(document: SourceDocument, format: DocumentFormat, options: ValidatorOptions): Promise<DocumentReport> {
  const input = document.bytes ?? document.text;
  await loadFor(input, { ...options, format });
  const items = validateDocumentText(input, { ...options, format });
  for (const item of items) {
    item.errors.sort(byPosition);
    item.warnings.sort(byPosition);
  }
  return { document, format, items, source: new SourceLines(document.text) };
}
