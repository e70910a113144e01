/**
 * Where a store's data is, for a map to open over: the box of the middle 98% of its point
 * features, each side at a percentile of their longitudes or latitudes. An extract's long ways and
 * relations (ferry routes, maritime boundaries) and a stray buoy reach far past the place it is
 * of: the box of every feature of Monaco reaches toward Corsica and centres on the sea. Both stores
 * take the values at these same offsets into the sorted values, so they agree.
 */
const TRIMMED = 0.01;

/** The offsets, into `count` values sorted ascending, of the box's low and high sides. */
export function trimmedOffsets(count: number): { low: number; high: number } {
  return { low: Math.floor((count - 1) * TRIMMED), high: Math.ceil((count - 1) * (1 - TRIMMED)) };
}
