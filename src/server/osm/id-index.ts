/**
 * Compact id sets and node locations for way building. OSM ids exceed 2^32 but stay far
 * below 2^53, so they are held exactly in Float64Arrays; a sorted array with binary search
 * costs 8 bytes per id where a Map would cost ~50-80.
 */

/** Accumulates ids (duplicates allowed) into a growing typed array. */
export class IdCollector {
  private ids = new Float64Array(1024);
  private count = 0;

  add(id: number): void {
    if (this.count === this.ids.length) {
      const grown = new Float64Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.count++] = id;
  }

  /** Sorts, drops duplicates and releases the spare capacity. */
  toSortedSet(): SortedIdSet {
    const sorted = this.ids.subarray(0, this.count).sort();
    let unique = 0;
    for (let i = 0; i < sorted.length; i++) {
      if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[unique++] = sorted[i]!;
    }
    this.ids = new Float64Array(0);
    this.count = 0;
    return new SortedIdSet(sorted.slice(0, unique));
  }
}

export class SortedIdSet {
  constructor(private readonly ids: Float64Array) {}

  get size(): number {
    return this.ids.length;
  }

  /** Position of `id` in the set, or -1. */
  indexOf(id: number): number {
    let low = 0;
    let high = this.ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = this.ids[middle]!;
      if (value < id) low = middle + 1;
      else if (value > id) high = middle - 1;
      else return middle;
    }
    return -1;
  }

  has(id: number): boolean {
    return this.indexOf(id) !== -1;
  }
}

/** Int32 can hold any lon/lat in 1e-7 degree units; this value marks "not seen yet". */
const UNSET = -0x80000000;

/**
 * Locations of a fixed set of nodes, in OSM's own fixed-point form (1e-7 degrees as Int32):
 * 16 bytes per node including its id, and exact, since that is how OSM stores them.
 */
export class NodeLocations {
  private readonly lons: Int32Array;
  private readonly lats: Int32Array;

  constructor(private readonly ids: SortedIdSet) {
    this.lons = new Int32Array(ids.size).fill(UNSET);
    this.lats = new Int32Array(ids.size);
  }

  /** Records a node's location if it is one of the wanted nodes. */
  set(id: number, lon: number, lat: number): void {
    const index = this.ids.indexOf(id);
    if (index === -1) return;
    this.lons[index] = Math.round(lon * 1e7);
    this.lats[index] = Math.round(lat * 1e7);
  }

  /** [lon, lat] in degrees, or null if the node was not in the file. */
  get(id: number): [number, number] | null {
    const index = this.ids.indexOf(id);
    if (index === -1 || this.lons[index] === UNSET) return null;
    return [this.lons[index]! / 1e7, this.lats[index]! / 1e7];
  }
}
