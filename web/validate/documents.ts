/**
 * What the page validates: documents, each a name and a text read as JSON (a lone item or a
 * FeatureCollection) or NDJSON (one item per line), as `basemodel validate` reads files.
 */
import type { DocumentOptions } from "basemodel";

export type DocumentFormat = NonNullable<DocumentOptions["format"]>;
/** "auto": by the file's name as the command line reads it, else by the text itself. */
export type FormatChoice = DocumentFormat | "auto";

export interface SourceDocument {
  /** The file's name, or PASTED for the text typed or pasted into the editor. */
  name: string;
  /** What the editor shows (a file's bytes decoded as UTF-8, a byte-order mark dropped). */
  text: string;
  /**
   * A file's bytes until the text is edited: validated as they are, so that a file that is not
   * UTF-8 is said to be so, as the command line says it.
   */
  bytes?: Uint8Array;
}

export const PASTED = "pasted text";

/** The names the command line reads as NDJSON (src/cli/file-report.ts). */
const NDJSON_NAME = /\.(ndjson|jsonl)$/i;

/**
 * Text that is one JSON value per line: its first non-blank line is a whole object by itself and
 * more lines follow. A pretty-printed item starts with a lone "{", which is no value by itself.
 */
function looksLikeNdjson(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  if (lines.length < 2) return false;
  try {
    const first: unknown = JSON.parse(lines[0]!);
    return first !== null && typeof first === "object" && !Array.isArray(first);
  } catch {
    return false;
  }
}

/** How a document is read: as chosen; "auto" reads a file as the command line does (by its name), pasted text by its lines. */
export function formatOf(document: SourceDocument, choice: FormatChoice): DocumentFormat {
  if (choice !== "auto") return choice;
  if (document.name !== PASTED) return NDJSON_NAME.test(document.name) ? "ndjson" : "json";
  return looksLikeNdjson(document.text) ? "ndjson" : "json";
}

/** The files a user picked or dropped. */
export function readFiles(files: Iterable<File>): Promise<SourceDocument[]> {
  return Promise.all(
    [...files].map(async (file) => {
      const bytes = new Uint8Array(await file.arrayBuffer());
      return { name: file.name, text: new TextDecoder().decode(bytes), bytes };
    }),
  );
}
