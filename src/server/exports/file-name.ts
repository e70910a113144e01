/**
 * The name a client chooses for its export becomes part of file names on our disk and in the
 * zip, so it is reduced to letters (with their marks), digits and "_" (docs/decisions.md): no separator, no "..", no
 * control character can survive, and so no path can leave the export directory.
 */
import { truncateUtf8 } from "../formats/names.js";

export const DEFAULT_FILE_NAME = "Export";

/**
 * Leaves room in a 255-byte file name for "_<outputType>_uid_<uuid>.zip" (52 bytes at most)
 * and for the temporary suffixes used while writing.
 */
const MAX_BYTES = 150;

export function sanitizeFileName(requested: string | undefined): string {
  if (requested === undefined) return DEFAULT_FILE_NAME;
  // NFC first: "é" typed as e + combining accent is one letter, not a letter and a "_".
  // Marks (\p{M}) belong to letters: Devanagari's vowel signs, say.
  const cleaned = requested.normalize("NFC").replace(/[^\p{L}\p{M}\p{N}_]+/gu, "_");
  const cut = truncateUtf8(cleaned, MAX_BYTES).toString("utf8");
  return /[\p{L}\p{N}]/u.test(cut) ? cut : DEFAULT_FILE_NAME;
}
