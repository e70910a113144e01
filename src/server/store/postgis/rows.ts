/** A feature table's row as the PostGIS store selects it: a FeatureRow (../feature-rows.ts). */

/** ISO-8601 UTC, as the SQLite store and the API write times. */
export const ISO_TIME = `'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;

/**
 * The columns of a FeatureRow, from a feature table named `t`: PostGIS writes the GeoJSON, and
 * jsonb the tags' text, so that an answer copies them unparsed. No bounding box: every query
 * tests the area in SQL, and each ST_XMin-style call would read the whole geometry again.
 */
export const FEATURE_COLUMNS = `t.osm_id, t.version, t.changeset, to_char(t.timestamp, ${ISO_TIME}), t.uid, t."user", t.tags::text, ST_AsGeoJSON(t.geom)`;

/** How many columns FEATURE_COLUMNS has: annotation columns (or a table's position) follow them. */
export const FEATURE_COLUMN_COUNT = 8;
