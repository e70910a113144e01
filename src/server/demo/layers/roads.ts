/** The street grid, and a bus route along the two main roads (a relation that is not an area). */
import type { Position } from "../../../model/geojson.js";
import type { Layer } from "../context.js";
import { at, EAST_WEST_STREETS, NORTH_SOUTH_STREETS } from "../town.js";
import type { Street } from "../town.js";

/** Every street runs the whole grid, with a vertex at each crossing, as OSM ways share nodes there. */
const northSouthLine = (street: Street): Position[] => EAST_WEST_STREETS.map((crossing) => at(street.offset, crossing.offset));
const eastWestLine = (street: Street): Position[] => NORTH_SOUTH_STREETS.map((crossing) => at(crossing.offset, street.offset));

const SURFACES = ["asphalt", "asphalt", "paved", "compacted", "unpaved", "sand"];

export const roads: Layer = {
  name: "roads",
  build({ random, feature }) {
    const road = (street: Street, line: Position[]) => {
      const tags: Record<string, string> = { highway: street.highway, name: street.name };
      if (street.highway === "residential") tags["surface"] = random.pick(SURFACES);
      else Object.assign(tags, { surface: "asphalt", maxspeed: street.highway === "primary" ? "50" : "40" });
      return feature("ways_line", tags, { type: "LineString", coordinates: line });
    };
    return [
      ...NORTH_SOUTH_STREETS.map((street) => road(street, northSouthLine(street))),
      ...EAST_WEST_STREETS.map((street) => road(street, eastWestLine(street))),
    ];
  },
};

const mainStreet = (streets: readonly Street[], highway: string): Street => streets.find((street) => street.highway === highway)!;

export const busRoute: Layer = {
  name: "bus route",
  build({ feature }) {
    const avenue = northSouthLine(mainStreet(NORTH_SOUTH_STREETS, "primary"));
    const station = eastWestLine(mainStreet(EAST_WEST_STREETS, "secondary"));
    const tags = { type: "route", route: "bus", ref: "1", name: "Bus 1: South Road - Station Road", network: "Demo Town Buses" };
    return [feature("relations", tags, { type: "MultiLineString", coordinates: [avenue, station] })];
  },
};
