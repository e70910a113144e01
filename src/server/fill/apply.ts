/**
 * Applies an OSM change file to a feature store, as one transaction:
 *
 * 1. the last version of each object in the file wins; a version the store already has (or
 *    an older one) is skipped, which is what makes applying a file twice change nothing;
 * 2. the objects themselves are written (nodes, ways, relations; deletions remembered);
 * 3. every feature the change touches is rebuilt from the store: changed objects, ways that
 *    use a changed node, relations that use a rebuilt way;
 * 4. data quality is checked for the rebuilt features and their neighbours (whose overlap or
 *    duplication may have ended);
 * 5. changesets are loaded and the replication timestamp advances.
 *
 * Any error rolls everything back: the store is left exactly as it was.
 */
import { assemble, emptyProblemCounts } from "../osm/assemble.js";
import type { ProblemCounts } from "../osm/assemble.js";
import { formatOsmTimestamp } from "../../model/osm.js";
import type { OsmEntity, OsmTags } from "../../model/osm.js";
import type { Changeset, OsmType, RawEntity, RawOf, StoredFeature } from "../../model/features.js";
import type { StoreUpdate, WritableFeatureStore } from "../store/store.js";
import { StoreLocations } from "./locations.js";
import { checkChanged, type FeatureChecker } from "./quality.js";
import type { ChangeAction } from "../osm/change.js";
import { UpdateError } from "./update-errors.js";

export interface ApplyOptions {
  changesets?: readonly Changeset[];
  checker?: FeatureChecker;
}

type Counts = Record<OsmType, number>;

export interface UpdateSummary {
  created: Counts;
  modified: Counts;
  deleted: Counts;
  /** Objects whose version the store already had (or a newer one): a repeated file skips them all. */
  skipped: number;
  /** Features written or removed, including those rebuilt because a node they use moved. */
  featuresWritten: number;
  featuresRemoved: number;
  /** Features checked for data quality, and how many of them have a finding now. */
  checked: number;
  withFindings: number;
  changesets: number;
  problems: ProblemCounts;
  /** The store's replication timestamp after the change; null when the change has no timestamps. */
  replicationTimestamp: string | null;
}

const zero = (): Counts => ({ node: 0, way: 0, relation: 0 });

/** A summary of nothing applied yet. */
export function emptyUpdateSummary(): UpdateSummary {
  return {
    created: zero(),
    modified: zero(),
    deleted: zero(),
    skipped: 0,
    featuresWritten: 0,
    featuresRemoved: 0,
    checked: 0,
    withFindings: 0,
    changesets: 0,
    problems: emptyProblemCounts(),
    replicationTimestamp: null,
  };
}
const keyOf = (type: OsmType, id: number) => `${type}/${id}`;
export const TYPE_ORDER: Record<OsmType, number> = { node: 0, way: 1, relation: 2 };

export async function applyChange(store: Pick<WritableFeatureStore, "update">, actions: readonly ChangeAction[], options: ApplyOptions = {}): Promise<UpdateSummary> {
  const update = store.update();
  try {
    const summary = await applyInTransaction(update, actions, options);
    await update.commit();
    return summary;
  } catch (error) {
    await update.rollback();
    throw error;
  }
}

async function applyInTransaction(update: StoreUpdate, actions: readonly ChangeAction[], options: ApplyOptions): Promise<UpdateSummary> {
  const summary = emptyUpdateSummary();
  const { applied, removed } = await writeObjects(update, lastVersions(actions), summary);
  const touched = await touchedObjects(update, applied);
  const rebuilt = [...removed.map((before) => ({ before, after: null })), ...(await rebuildFeatures(update, applied, touched, summary))];
  if (options.checker) Object.assign(summary, await checkChanged(update, options.checker, rebuilt));
  for (const changeset of options.changesets ?? []) await update.putChangeset(changeset);
  summary.changesets = options.changesets?.length ?? 0;
  const newest = newestTimestamp(actions);
  if (newest !== null) summary.replicationTimestamp = await update.advanceReplicationTimestamp(newest);
  return summary;
}

/** Per object, the action with the highest version (the later one among equals), nodes first. */
export function lastVersions(actions: readonly ChangeAction[]): ChangeAction[] {
  const last = new Map<string, ChangeAction>();
  for (const action of actions) {
    const key = keyOf(action.entity.type, action.entity.id);
    const earlier = last.get(key);
    if (earlier === undefined || earlier.entity.version === null || action.entity.version === null || action.entity.version >= earlier.entity.version) last.set(key, action);
  }
  return [...last.values()].sort((a, b) => TYPE_ORDER[a.entity.type] - TYPE_ORDER[b.entity.type]);
}

/** The ids of the actions' objects, by type. */
function idsByType(actions: readonly ChangeAction[]): Record<OsmType, number[]> {
  const ids: Record<OsmType, number[]> = { node: [], way: [], relation: [] };
  for (const { entity } of actions) ids[entity.type].push(entity.id);
  return ids;
}

const TYPES: readonly OsmType[] = ["node", "way", "relation"];

/** Writes the objects; returns the actions that took effect, and the features deletions removed. */
async function writeObjects(
  update: StoreUpdate,
  actions: readonly ChangeAction[],
  summary: UpdateSummary,
): Promise<{ applied: ChangeAction[]; removed: StoredFeature[] }> {
  // Everything the writes depend on is read first, in a few reads per type: each object is in
  // `actions` once, so no write below changes what another action reads.
  const ids = idsByType(actions);
  const deletions = idsByType(actions.filter((action) => action.action === "delete"));
  const stored = new Map<OsmType, Map<number, RawEntity>>();
  const deleted = new Map<OsmType, Map<number, number | null>>();
  const features = new Map<OsmType, Map<number, StoredFeature>>();
  for (const type of TYPES) {
    const raws: Map<number, RawEntity> = await update.getRaws(type, ids[type]);
    stored.set(type, raws);
    deleted.set(type, await update.deletedVersions(type, ids[type].filter((id) => !raws.has(id))));
    features.set(type, await update.getFeatures(type, deletions[type]));
  }
  const applied: ChangeAction[] = [];
  const removed: StoredFeature[] = [];
  const puts: RawEntity[] = [];
  const deletes: Array<{ type: OsmType; id: number; version: number | null }> = [];
  for (const action of actions) {
    const { type, id } = action.entity;
    const raw = stored.get(type)!.get(id);
    const deletedAt = raw === undefined ? deleted.get(type)!.get(id) : undefined;
    const known = raw !== undefined || deletedAt !== undefined;
    const storedVersion = raw !== undefined ? raw.version : deletedAt;
    if (action.entity.version !== null && storedVersion !== null && storedVersion !== undefined && action.entity.version <= storedVersion) {
      summary.skipped++;
      continue;
    }
    if (action.action !== "create" && !known) {
      throw new UpdateError(`the change ${action.action === "modify" ? "modifies" : "deletes"} ${type} ${id}, which the store does not have`);
    }
    if (action.action === "delete") {
      const feature = features.get(type)!.get(id);
      if (feature !== undefined) removed.push(feature);
      deletes.push({ type, id, version: action.entity.version });
      summary.deleted[type]++;
    } else {
      puts.push(action.entity);
      summary[raw === undefined ? "created" : "modified"][type]++;
    }
    applied.push(action);
  }
  await update.deleteRaws(deletes);
  await update.putRaws(puts);
  summary.featuresRemoved += removed.length;
  return { applied, removed };
}

/** Ways that use a changed node, and relations that use a changed or rebuilt way, beyond those in the file. */
async function touchedObjects(update: StoreUpdate, applied: readonly ChangeAction[]): Promise<{ ways: Set<number>; relations: Set<number> }> {
  const inFile = new Set(applied.map((action) => keyOf(action.entity.type, action.entity.id)));
  const ways = new Set<number>();
  const relations = new Set<number>();
  const nodes = applied.filter((action) => action.entity.type === "node");
  const usage = await update.waysUsingNodes(nodes.map((action) => action.entity.id));
  for (const action of nodes) {
    for (const way of usage.get(action.entity.id) ?? []) {
      if (inFile.has(keyOf("way", way))) continue;
      if (action.action === "delete") throw new UpdateError(`the change deletes node ${action.entity.id}, but way ${way} still uses it`);
      ways.add(way);
    }
  }
  const changedWays = [...applied.filter((action) => action.entity.type === "way").map((action) => action.entity.id), ...ways];
  for (const relation of await update.relationsUsingWays(changedWays)) if (!inFile.has(keyOf("relation", relation))) relations.add(relation);
  return { ways, relations };
}

/** Rebuilds every feature the change touches; returns them as stored now, with their previous versions. */
async function rebuildFeatures(
  update: StoreUpdate,
  applied: readonly ChangeAction[],
  touched: { ways: Set<number>; relations: Set<number> },
  summary: UpdateSummary,
): Promise<Array<{ before: StoredFeature | null; after: StoredFeature | null }>> {
  const entities = applied.flatMap((action) => (action.action === "delete" ? [] : [action.entity]));
  entities.push(...(await storedEntities(update, "way", [...touched.ways])), ...(await storedEntities(update, "relation", [...touched.relations])));
  const locations = await StoreLocations.load(update, entities);
  const ids: Record<OsmType, number[]> = { node: [], way: [], relation: [] };
  for (const entity of entities) ids[entity.type].push(entity.id);
  const before = new Map<OsmType, Map<number, StoredFeature>>();
  for (const type of TYPES) before.set(type, await update.getFeatures(type, ids[type]));
  const results: Array<{ before: StoredFeature | null; after: StoredFeature | null }> = [];
  const written: Array<{ type: OsmType; id: number; found: StoredFeature | null }> = [];
  for (const entity of entities) {
    const missing = entity.type === "way" ? entity.refs.filter((ref) => locations.node(ref) === null) : [];
    if (missing.length > 0) throw new UpdateError(`way ${entity.id} uses node ${missing.join(", node ")}, which neither the store nor the change file has`);
    const was = before.get(entity.type)!.get(entity.id) ?? null;
    const after = assemble(entity, locations, summary.problems);
    written.push({ type: entity.type, id: entity.id, found: after });
    if (after !== null) summary.featuresWritten++;
    else if (was !== null) summary.featuresRemoved++;
    results.push({ before: was, after });
  }
  await update.putFeatures(written);
  return results;
}

/**
 * Objects the file did not change but that must be rebuilt: their geometry references from the
 * store, their tags and metadata from their features. One without a feature is untagged and makes none.
 */
async function storedEntities(update: StoreUpdate, type: "way" | "relation", ids: readonly number[]): Promise<OsmEntity[]> {
  const [raws, features] = await Promise.all([update.getRaws(type, ids), update.getFeatures(type, ids)]);
  return ids.flatMap((id): OsmEntity[] => {
    const raw = raws.get(id);
    const found = features.get(id);
    if (raw === undefined || found === undefined) return [];
    const { feature } = found;
    const metadata = {
      version: feature.version,
      timestamp: feature.timestamp === null ? null : Date.parse(feature.timestamp),
      changeset: feature.changeset,
      uid: feature.uid,
      user: feature.user,
      tags: feature.tags as OsmTags,
    };
    return [raw.type === "way" ? { ...metadata, type: "way", id, refs: raw.refs } : { ...metadata, type: "relation", id, members: (raw as RawOf<"relation">).members }];
  });
}

/** The newest time of the change's objects, as the store writes times; null when none has one. */
export function newestTimestamp(actions: readonly ChangeAction[]): string | null {
  let newest = -Infinity;
  for (const action of actions) if (action.entity.timestamp !== null && action.entity.timestamp > newest) newest = action.entity.timestamp;
  return Number.isFinite(newest) ? formatOsmTimestamp(newest) : null;
}
