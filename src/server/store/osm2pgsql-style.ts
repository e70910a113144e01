import { packageFile } from "../../package-files.js";

/** Where the package keeps its osm2pgsql style. */
export const OSM2PGSQL_STYLE = packageFile("osm2pgsql/basemodel.lua");
