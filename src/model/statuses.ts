/** Underpass's validation statuses that the checker gives, most severe first: the order in which a feature's statuses are listed. */
export const QUALITY_STATUSES = ["badgeom", "overlapping", "duplicate", "badvalue", "incomplete"] as const;
export type QualityStatus = (typeof QUALITY_STATUSES)[number];

/** The statuses about a feature's shape or its relation to other features: what /report/dataQualityGeo lists. */
export const GEOMETRY_STATUSES = ["badgeom", "overlapping", "duplicate"] as const satisfies readonly QualityStatus[];

/** The statuses about a feature's tags, whose values are tags or keys: what the tag reports list. */
export const TAG_STATUSES = ["badvalue", "incomplete"] as const satisfies readonly QualityStatus[];
