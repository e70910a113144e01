-- basemodel's osm2pgsql flex style: fills HOT's raw-data tables (nodes, ways_line, ways_poly,
-- relations) as `basemodel import` fills its SQLite store, for
--   osm2pgsql --create --slim --output=flex --extra-attributes --style basemodel.lua FILE
-- (written for basemodel from the classification in docs/decisions.md and src/server/osm/assemble.ts):
--   - the tags odbl and source:ref are dropped; an object with no tags left is no feature;
--   - a tagged node is a Point in nodes;
--   - a closed way of more than 3 nodes is a Polygon in ways_poly, whatever its tags; any other
--     way a LineString in ways_line;
--   - a relation of type multipolygon or boundary is a (Multi)Polygon with its holes in
--     relations, any other relation a MultiLineString of its member ways.

local SRID = 4326

-- osm2pgsql 1.8 (fixed in 1.9): when --append re-processes ways and relations, the middle's
-- attributes reach this style as the pseudo-tags below, and missing attributes as 0 or "".
-- They are never tags of the object.
local PSEUDO_TAGS = { osm_uid = true, osm_user = true, osm_version = true, osm_changeset = true, osm_timestamp = true }
local DROPPED_TAGS = { odbl = true, ['source:ref'] = true }
local AREA_RELATION_TYPES = { multipolygon = true, boundary = true }

local function feature_table(name, id_type, geometry_type)
    return osm2pgsql.define_table({
        name = name,
        ids = { type = id_type, id_column = 'osm_id' },
        columns = {
            { column = 'version', type = 'int4' },
            { column = 'changeset', type = 'int8' },
            { column = 'timestamp', sql_type = 'timestamp' },
            { column = 'uid', type = 'int4' },
            { column = 'user', type = 'text' },
            { column = 'tags', type = 'jsonb', not_null = true },
            { column = 'geom', type = geometry_type, projection = SRID, not_null = true },
        },
    })
end

local nodes = feature_table('nodes', 'node', 'point')
local ways_line = feature_table('ways_line', 'way', 'linestring')
local ways_poly = feature_table('ways_poly', 'way', 'polygon')
local relations = feature_table('relations', 'relation', 'geometry')

-- The tags that make the feature, or nil when none is left.
local function feature_tags(object)
    local kept = nil
    for key, value in pairs(object.tags) do
        if not PSEUDO_TAGS[key] and not DROPPED_TAGS[key] then
            kept = kept or {}
            kept[key] = value
        end
    end
    return kept
end

-- An attribute, or the pseudo-tag osm2pgsql 1.8 put it in; nil for a missing one (0 or "").
local function attribute(object, name)
    local value = object[name]
    if value == nil or value == 0 or value == '' then
        value = object.tags['osm_' .. name]
    end
    if value == nil or value == 0 or value == '' or value == '0' then
        return nil
    end
    return value
end

local function timestamp(object)
    local value = attribute(object, 'timestamp')
    if value == nil then
        return nil
    end
    if type(value) == 'number' then
        return os.date('!%Y-%m-%dT%H:%M:%SZ', value)
    end
    return value
end

local function row(object, tags, geometry)
    return {
        version = attribute(object, 'version'),
        changeset = attribute(object, 'changeset'),
        timestamp = timestamp(object),
        uid = attribute(object, 'uid'),
        user = attribute(object, 'user'),
        tags = tags,
        geom = geometry,
    }
end

-- Inserts the object into `table` with the geometry `build` makes of it, if it has tags left.
local function add(table, object, build)
    local tags = feature_tags(object)
    if tags then
        table:insert(row(object, tags, build(object)))
    end
end

function osm2pgsql.process_node(object)
    add(nodes, object, object.as_point)
end

function osm2pgsql.process_way(object)
    if object.is_closed and #object.nodes > 3 then
        add(ways_poly, object, object.as_polygon)
    else
        add(ways_line, object, object.as_linestring)
    end
end

function osm2pgsql.process_relation(object)
    local area = AREA_RELATION_TYPES[object.tags.type]
    add(relations, object, area and object.as_multipolygon or object.as_multilinestring)
end
