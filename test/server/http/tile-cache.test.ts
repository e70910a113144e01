import { describe, expect, it } from "vitest";
import { TileCache } from "../../../src/server/http/tile-cache.js";

/** A maker of tiles of `size` bytes that counts how often it is asked. */
function maker(size: number) {
  const made: string[] = [];
  const make = (key: string) => async () => {
    made.push(key);
    return new Uint8Array(size).fill(key.length);
  };
  return { made, make };
}

describe("TileCache: tiles kept by data version, the least recently used dropped past the byte limit", () => {
  it("keeps a tile for its version, and makes it again once the version changes", async () => {
    const cache = new TileCache(1024 * 1024);
    const { made, make } = maker(100);
    const first = await cache.tile("v1", "15/1/2", make("15/1/2"));
    expect(await cache.tile("v1", "15/1/2", make("15/1/2"))).toBe(first);
    expect(made).toEqual(["15/1/2"]);
    await cache.tile("v2", "15/1/2", make("15/1/2"));
    expect(made).toEqual(["15/1/2", "15/1/2"]);
    // Back at the first version: nothing of it was kept across the change.
    await cache.tile("v1", "15/1/2", make("15/1/2"));
    expect(made).toHaveLength(3);
  });

  it("drops the least recently used tiles once they hold more bytes than allowed", async () => {
    // Room for two tiles of 1,000 bytes and their entries, not three.
    const cache = new TileCache(2600);
    const { made, make } = maker(1000);
    for (const key of ["a", "b"]) await cache.tile("v", key, make(key));
    await cache.tile("v", "a", make("a"));
    await cache.tile("v", "c", make("c"));
    expect(made).toEqual(["a", "b", "c"]);
    // "b" was the least recently used: it went, "a" and "c" stayed.
    for (const key of ["a", "c", "b"]) await cache.tile("v", key, make(key));
    expect(made).toEqual(["a", "b", "c", "b"]);
  });

  it("keeps nothing with a limit of 0, nor a tile larger than the limit; the ETag is the bytes'", async () => {
    const none = new TileCache(0);
    const { made, make } = maker(10);
    await none.tile("v", "a", make("a"));
    await none.tile("v", "a", make("a"));
    expect(made).toEqual(["a", "a"]);
    const small = new TileCache(500);
    const large = maker(1000);
    await small.tile("v", "a", large.make("a"));
    await small.tile("v", "a", large.make("a"));
    expect(large.made).toEqual(["a", "a"]);
    const [one, two, other] = [await none.tile("v", "a", make("a")), await none.tile("w", "b", make("a")), await none.tile("v", "c", maker(11).make("c"))];
    expect(one.etag).toBe(two.etag);
    expect(one.etag).not.toBe(other.etag);
  });

  it("a tile made while the data changed is not kept for either version", async () => {
    const cache = new TileCache(1024 * 1024);
    const { made, make } = maker(10);
    let finish!: () => void;
    const slow = cache.tile("v1", "a", async () => {
      await new Promise<void>((resolve) => (finish = resolve));
      return make("a")();
    });
    await new Promise((resolve) => setImmediate(resolve));
    await cache.tile("v2", "b", make("b"));
    finish();
    await slow;
    await cache.tile("v2", "a", make("a"));
    expect(made).toEqual(["b", "a", "a"]);
  });
});
