/**
 * JSON answers assembled around parts that are JSON text already, such as the geometry and
 * tags a store holds as text: those are copied in, never parsed and serialised again.
 */
import type { FastifyReply } from "fastify";

/** Sends JSON bytes as they are: fastify serialises objects only. */
export function sendJson(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.type("application/json; charset=utf-8").send(bytes);
}

/** A GeoJSON Feature's JSON text, from the JSON texts of its geometry and properties. */
export function featureJson(id: number, geometry: string, properties: string): string {
  return `{"type":"Feature","id":${id},"geometry":${geometry},"properties":${properties}}`;
}

/**
 * A JSON array written item by item as UTF-8 into one buffer, which doubles when it is full.
 * Each item is encoded as it comes, so its objects need not live until the answer is whole;
 * and the answer is never one string, which V8 would copy again to measure it and the socket
 * would then encode.
 */
export class JsonArrayBytes {
  #buffer = Buffer.allocUnsafe(64 * 1024);
  #length = 0;

  /** UTF-8 bytes of the items written so far, commas included. */
  get byteLength(): number {
    return this.#length;
  }

  add(itemJson: string): void {
    // One write per item, its comma included: each write costs as much as a short item's bytes.
    this.#append(this.#length > 0 ? `,${itemJson}` : itemJson);
  }

  /** `JSON.stringify(head)` with one more member, `name`: this array. */
  memberOf(head: object, name: string): Buffer {
    const open = Buffer.from(`${objectJsonOpen(JSON.stringify(head))}${JSON.stringify(name)}:[`);
    return Buffer.concat([open, this.#buffer.subarray(0, this.#length), ARRAY_AND_OBJECT_END]);
  }

  #append(text: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8, so this room never cuts a character short.
    const needed = this.#length + text.length * 3;
    if (needed > this.#buffer.length) {
      const larger = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2));
      this.#buffer.copy(larger, 0, 0, this.#length);
      this.#buffer = larger;
    }
    this.#length += this.#buffer.write(text, this.#length);
  }
}

const ARRAY_AND_OBJECT_END = Buffer.from("]}");

/** An object's JSON text without its closing brace, ready for one more member. */
function objectJsonOpen(objectJson: string): string {
  return objectJson === "{}" ? "{" : `${objectJson.slice(0, -1)},`;
}
