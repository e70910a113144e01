const NO_MATCH = Number.POSITIVE_INFINITY;
const LONGEST_WORD = 200;

// Three rolling rows of the distance table, reused across calls: suggestions sit on the path of
// every invalid item, so they must not allocate.
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(0), new Int32Array(0), new Int32Array(0)];

function rowsFor(length: number): [Int32Array, Int32Array, Int32Array] {
  if (rows[0].length < length) rows = [new Int32Array(length), new Int32Array(length), new Int32Array(length)];
  return rows;
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment), or NO_MATCH as soon as
 * it must exceed `limit`: a whole row above the limit can only grow.
 */
function boundedDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return NO_MATCH;
  const cols = b.length + 1;
  let [twoBack, previous, current] = rowsFor(cols);
  for (let j = 0; j < cols; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j < cols; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        best = Math.min(best, twoBack[j - 2]! + 1);
      }
      current[j] = best;
      if (best < rowMin) rowMin = best;
    }
    if (rowMin > limit) return NO_MATCH;
    [twoBack, previous, current] = [previous, current, twoBack];
  }
  const d = previous[cols - 1]!;
  return d <= limit ? d : NO_MATCH;
}

/**
 * The candidate a person most likely meant, or undefined when none is close.
 * A candidate equal but for letter case always wins; otherwise the edit distance must be small
 * against the length of the shorter word, or at most maxDistance when given.
 */
export function closest(found: string, candidates: readonly string[], maxDistance?: number): string | undefined {
  if (found.length > LONGEST_WORD) return undefined;
  let lower: string | undefined;
  let best: string | undefined;
  let bestDistance = NO_MATCH;
  for (const candidate of candidates) {
    if (candidate.length > LONGEST_WORD) continue;
    const limit = Math.min(maxDistance ?? Math.max(1, Math.floor(Math.min(found.length, candidate.length) / 3)), bestDistance - 1);
    // Equal but for case means equal lengths, and close means lengths within the limit: most
    // candidates (the members of an object, for a missing one) are ruled out before a string is made.
    if (candidate.length !== found.length && Math.abs(candidate.length - found.length) > limit) continue;
    lower ??= found.toLowerCase();
    const candidateLower = candidate.toLowerCase();
    if (candidateLower === lower) return candidate;
    const d = boundedDistance(lower, candidateLower, limit);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
