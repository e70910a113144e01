/**
 * JSON text assembled around parts that are JSON text already, such as the geometry a store
 * holds as GeoJSON: those are copied into the answer, not parsed and serialised again.
 */
import type { FastifyReply } from "fastify";

/** Sends JSON text: fastify sends a string with its JSON content type as it is, without serialising. */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type("application/json; charset=utf-8").send(text);
}

/** `JSON.stringify(value)` with `members` (name -> JSON text) added after its own members. */
export function jsonObject(value: object, members: Record<string, string>): string {
  const own = JSON.stringify(value);
  let text = own.slice(0, -1);
  let separator = own === "{}" ? "" : ",";
  for (const [name, json] of Object.entries(members)) {
    text += `${separator}${JSON.stringify(name)}:${json}`;
    separator = ",";
  }
  return `${text}}`;
}

/** A JSON array of items that are JSON text. */
export function jsonArray(items: readonly string[]): string {
  return `[${items.join(",")}]`;
}
