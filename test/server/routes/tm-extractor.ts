/**
 * HOT's Tasking Manager extractor (hotosm/TM-Extractor): its config.json, as
 * ProjectProcessor.generate_filtered_config fills it for a project before it POSTs it to
 * {base}/custom/snapshot/: the project's area (the Tasking Manager's areaOfInterest, a
 * MultiPolygon), its prefix, and the categories of the project's mapping types.
 */
interface Category {
  types: string[];
  select: string[];
  where: string;
  formats: string[];
}

/** config.json's categories, by the mapping type each serves. */
export const TM_CATEGORIES: Record<string, Category> = {
  Buildings: {
    types: ["polygons"],
    select: ["name", "building", "building:levels", "building:materials", "addr:full", "addr:housenumber", "addr:street", "addr:city", "office", "source"],
    where: "tags['building'] IS NOT NULL",
    formats: ["geojson", "shp", "kml"],
  },
  Roads: {
    types: ["lines"],
    select: ["name", "highway", "surface", "smoothness", "width", "lanes", "oneway", "bridge", "layer", "source"],
    where: "tags['highway'] IS NOT NULL",
    formats: ["geojson", "shp", "kml"],
  },
  Waterways: {
    types: ["lines", "polygons"],
    select: ["name", "waterway", "covered", "width", "depth", "layer", "blockage", "tunnel", "natural", "water", "source"],
    where: "tags['waterway'] IS NOT NULL OR tags['water'] IS NOT NULL OR tags['natural'] IN ('water','wetland','bay')",
    formats: ["geojson", "shp", "kml"],
  },
  Landuse: { types: ["points", "polygons"], select: ["name", "amenity", "landuse", "leisure"], where: "tags['landuse'] IS NOT NULL", formats: ["geojson", "shp", "kml"] },
};

/** The request for project `projectId` over `area`, with the categories of `mappingTypes` (all four by default). */
export function tmExtractorRequest(area: { coordinates: number[][][] }, projectId: number, mappingTypes = Object.keys(TM_CATEGORIES)) {
  return {
    geometry: { type: "MultiPolygon", coordinates: [area.coordinates] },
    queue: "raw_daemon",
    dataset: { dataset_prefix: `hotosm_project_${projectId}`, dataset_folder: "TM", dataset_title: `Tasking Manger Project ${projectId}` },
    categories: mappingTypes.map((name): Record<string, Category> => ({ [name]: TM_CATEGORIES[name]! })),
  };
}
