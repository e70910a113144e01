/** Underpass's validation statuses that the checker gives, most severe first: the order in which a feature's statuses are listed. */
export const QUALITY_STATUSES = ["badgeom", "overlapping", "duplicate", "badvalue", "incomplete"] as const;
export type QualityStatus = (typeof QUALITY_STATUSES)[number];
