/** Where the package keeps its osm2pgsql style (two folders below the package root, as the CLI bundle is). */
import { fileURLToPath } from "node:url";

export const OSM2PGSQL_STYLE = fileURLToPath(new URL("../../osm2pgsql/basemodel.lua", import.meta.url));
