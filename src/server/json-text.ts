/**
 * JSON answers assembled around parts that are JSON text already, such as the geometry and
 * tags a store holds as text: those are copied in, never parsed and serialised again.
 */
import type { FastifyReply } from "fastify";

/** Sends JSON bytes as they are: fastify serialises objects only. */
export function sendJson(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.type("application/json; charset=utf-8").send(bytes);
}

/** The JSON text of `GeoJSON Feature` from the JSON texts of its geometry and properties. */
export function featureJson(id: number, geometry: string, properties: string): string {
  return `{"type":"Feature","id":${id},"geometry":${geometry},"properties":${properties}}`;
}

/** An object's JSON text with one more member after its own, whose value is JSON text. */
export function withMember(objectJson: string, name: string, json: string): string {
  return `${objectJsonOpen(objectJson)}${JSON.stringify(name)}:${json}}`;
}

/**
 * `JSON.stringify(head)` with one more member, `name`: the array of `items`, each written as
 * `itemJson` gives it, as UTF-8 bytes. The pieces are encoded one by one into a buffer rather
 * than joined into one string: V8 would copy a joined answer again to measure its length, and
 * the socket would then encode it.
 */
export function jsonWithArray<T>(head: object, name: string, items: readonly T[], itemJson: (item: T) => string): Buffer {
  const out = new Utf8Buffer();
  out.append(`${objectJsonOpen(JSON.stringify(head))}${JSON.stringify(name)}:[`);
  for (let index = 0; index < items.length; index++) {
    if (index > 0) out.append(",");
    out.append(itemJson(items[index]!));
  }
  return out.append("]}").bytes();
}

/** An object's JSON text without its closing brace, ready for one more member. */
function objectJsonOpen(objectJson: string): string {
  return objectJson === "{}" ? "{" : `${objectJson.slice(0, -1)},`;
}

/** Text encoded as UTF-8 into one buffer that doubles when it is full. */
class Utf8Buffer {
  #buffer = Buffer.allocUnsafe(64 * 1024);
  #length = 0;

  append(text: string): this {
    // A UTF-16 code unit is at most 3 bytes of UTF-8, so this room never cuts a character short.
    const needed = this.#length + text.length * 3;
    if (needed > this.#buffer.length) {
      const larger = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2));
      this.#buffer.copy(larger, 0, 0, this.#length);
      this.#buffer = larger;
    }
    this.#length += this.#buffer.write(text, this.#length);
    return this;
  }

  bytes(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }
}
