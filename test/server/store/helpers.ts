import type { OsmFeature } from "../../../src/model/features.js";

/**
 * Features as plain data, without `stored`. Named member by member: a store's features parse
 * their tags and geometry on first read (accessors on a class), which a spread would leave out.
 */
export const withoutStored = (features: readonly OsmFeature[]): OsmFeature[] => features.map(plainFeature);

export function plainFeature({ osmId, version, changeset, timestamp, uid, user, tags, geometry, annotations }: OsmFeature): OsmFeature {
  return { osmId, version, changeset, timestamp, uid, user, tags, geometry, ...(annotations && { annotations }) };
}
