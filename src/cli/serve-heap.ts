/**
 * The one V8 setting a serving process changes: no allocation-site pretenuring.
 *
 * V8 allocates an object literal straight in the old generation once most of its copies were
 * found alive at a collection of a full young generation, and never takes that back. Under load,
 * one mark-compact could count all of the last 800-950 copies of a few literals alive (by their
 * number, those made per feature row: a feature's stored text, its box, its annotations); the
 * process then put each row's small objects in the old generation for the rest of its life,
 * where, dead, they kept the row's young strings alive through every scavenge: 2.5 MB promoted
 * per scavenge, 7-17 mark-compacts per 2,000 requests (BENCHMARKS.md, session 19). Nothing a
 * request allocates outlives its answer, so the old generation is the wrong place for any of it.
 */
import { setFlagsFromString } from "node:v8";

export function keepRequestObjectsYoung(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}
