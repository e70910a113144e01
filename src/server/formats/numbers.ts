/**
 * A coordinate as text without exponent notation: JavaScript writes 1e-7 for 0.0000001, which
 * WKT and KML readers do not all accept.
 */
export function formatNumber(value: number): string {
  const text = String(value);
  if (!text.includes("e")) return text;
  return value.toFixed(20).replace(/\.?0+$/, "");
}
