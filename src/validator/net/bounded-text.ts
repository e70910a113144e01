/**
 * An answer's body read as text only up to a size: a host that sends gigabytes (or never stops)
 * costs a few megabytes of memory and no more time than that many take to arrive.
 */

/** The body as UTF-8 text (a leading BOM dropped, as Response.text() drops it); undefined, the rest left unread, when it holds more than `maxBytes`. */
export async function textWithin(response: Response, maxBytes: number): Promise<string | undefined> {
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > maxBytes || response.body === null) {
    await response.body?.cancel().catch(() => {});
    return declared > maxBytes ? undefined : "";
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
