/**
 * The data quality statuses as the page shows them: a colour each, on the map and beside each
 * finding of the list (the list says the status in words too: colour is never the only sign).
 */

import type { ExpressionSpecification } from "maplibre-gl";

export const STATUS_LOOKS = {
  badgeom: { name: "Bad geometry", colour: "#d62728" },
  overlapping: { name: "Overlapping", colour: "#9c27b0" },
  duplicate: { name: "Duplicate", colour: "#ff7f0e" },
  badvalue: { name: "Bad value", colour: "#c2185b" },
  incomplete: { name: "Incomplete", colour: "#8c6d1f" },
} as const;

export type Status = keyof typeof STATUS_LOOKS;

export function statusName(status: string): string {
  return (STATUS_LOOKS as Record<string, { name: string }>)[status]?.name ?? status;
}

/** A MapLibre expression: the colour of a feature's `status`, `fallback` for "ok" and anything else. */
export function statusColour(fallback: string): ExpressionSpecification {
  const cases = Object.entries(STATUS_LOOKS).flatMap(([status, look]) => [status, look.colour]);
  // MapLibre's type of "match" spells out its pairs one by one; a spread of them cannot meet it.
  return ["match", ["get", "status"], ...cases, fallback] as unknown as ExpressionSpecification;
}
