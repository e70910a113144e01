/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, never splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): Buffer {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return bytes;
  let end = maxBytes;
  // A continuation byte (10xxxxxx) at the cut means the cut is inside a character.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/**
 * Column names that a format with case-insensitive (and maybe length-limited) names can hold:
 * `addr:housenumber` and `addr:housename` in a 10-byte dbf become `addr:house` and `addr:hou_1`.
 * `reserved` names (the format's own columns) are never produced.
 */
export function uniqueNames(names: readonly string[], maxBytes = Infinity, reserved: readonly string[] = []): string[] {
  const taken = new Set(reserved.map((name) => name.toLowerCase()));
  return names.map((name) => {
    let candidate = truncateUtf8(name, maxBytes).toString("utf8");
    for (let n = 1; taken.has(candidate.toLowerCase()); n++) {
      const suffix = `_${n}`;
      candidate = truncateUtf8(name, maxBytes - suffix.length).toString("utf8") + suffix;
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
