/**
 * RFC 4180 text: fields separated by commas, records ended by CRLF, a field quoted when it holds
 * a separator, a quote or a line break (quotes doubled). Fields with leading or trailing spaces
 * are quoted too, so that readers that trim unquoted fields keep them.
 */

export type CsvValue = string | number | null | undefined;

/** One field; null and undefined are empty. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, with its CRLF. */
export function csvRecord(values: readonly CsvValue[]): string {
  return values.map(csvField).join(",") + "\r\n";
}
