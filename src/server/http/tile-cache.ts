/**
 * Tiles kept in memory, the least recently used dropped first once they hold more bytes than
 * allowed. Each tile is kept for the store's data version it was made from: a request that finds
 * the store at another version empties the cache, so that no tile outlives the data it shows.
 */
import { createHash } from "node:crypto";

export interface CachedTile {
  bytes: Uint8Array;
  /** A strong ETag: a hash of the bytes. */
  etag: string;
}

/** What a kept tile costs beyond its bytes: its key, entry and ETag. */
const ENTRY_BYTES = 200;

export class TileCache {
  private readonly tiles = new Map<string, CachedTile>();
  private bytes = 0;
  private version: string | undefined;

  /** `maxBytes` 0 keeps nothing. */
  constructor(private readonly maxBytes: number) {}

  /** The tile `key` of data version `version`, made by `make` unless kept. */
  async tile(version: string, key: string, make: () => Promise<Uint8Array>): Promise<CachedTile> {
    if (version !== this.version) {
      this.tiles.clear();
      this.bytes = 0;
      this.version = version;
    }
    const kept = this.tiles.get(key);
    if (kept !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.tiles.delete(key);
      this.tiles.set(key, kept);
      return kept;
    }
    const bytes = await make();
    const made = { bytes, etag: `"${createHash("sha1").update(bytes).digest("base64url")}"` };
    // The data may have changed while the tile was made: it is kept only for the version it was asked for.
    if (version === this.version) this.keep(key, made);
    return made;
  }

  private keep(key: string, tile: CachedTile): void {
    const size = tile.bytes.byteLength + ENTRY_BYTES;
    // Two requests for the same tile may both have made it: the first one is kept.
    if (size > this.maxBytes || this.tiles.has(key)) return;
    this.tiles.set(key, tile);
    this.bytes += size;
    for (const [oldest, dropped] of this.tiles) {
      if (this.bytes <= this.maxBytes) break;
      this.tiles.delete(oldest);
      this.bytes -= dropped.bytes.byteLength + ENTRY_BYTES;
    }
  }
}
