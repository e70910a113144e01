/** Numbers and times as the pages show them. */

const number = (value: number, digits: number) => value.toLocaleString("en-US", { maximumFractionDigits: digits });

/** "0.0312 km²", "12.4 km²", "100,000 km²": three significant figures below 100 km², whole km² above. */
export function formatKm2(km2: number): string {
  const text = km2 >= 100 ? number(km2, 0) : km2.toLocaleString("en-US", { maximumSignificantDigits: 3 });
  return `${text} km²`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${number(value, value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** How long ago `then` was, in the largest whole unit: "3 hours ago", "just now". */
export function timeAgo(then: Date, now = new Date()): string {
  const seconds = Math.round((now.getTime() - then.getTime()) / 1000);
  if (seconds < 60) return "just now";
  const units: Array<[string, number]> = [
    ["year", 365 * 86400],
    ["month", 30 * 86400],
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
  ];
  const [unit, size] = units.find(([, length]) => seconds >= length)!;
  const count = Math.floor(seconds / size);
  return `${count} ${unit}${count === 1 ? "" : "s"} ago`;
}

/** "2025-01-10 11:40 UTC". */
export function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
