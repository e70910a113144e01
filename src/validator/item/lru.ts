/**
 * A map that keeps the entries used last, up to `capacity`: for caches keyed by settings, which
 * a long-running caller may vary without end (a schema identifier per tenant, say).
 */
export class LruCache<K, V> {
  // A Map iterates in insertion order: the first key is the one used longest ago.
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value for `key`, made by `make` when there is none; either way it becomes the last used. */
  get(key: K, make: () => V): V {
    let value = this.entries.get(key);
    if (value !== undefined) this.entries.delete(key);
    else {
      value = make();
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as K);
    }
    this.entries.set(key, value);
    return value;
  }
}
