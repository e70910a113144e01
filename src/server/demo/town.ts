/**
 * Where the demo town lies and how it is laid out. The town is made up: a regular street
 * grid in the Tanezrouft, an empty stretch of the Algerian Sahara around 1.2°E 23.0°N, so
 * that on any map it is plainly synthetic and overlaps no real settlement.
 *
 * Everything is laid out in metres on a plane centred on the town (x east, y north) and
 * converted to degrees on OSM's 1e-7 grid; over 2 km a plane is as good as a sphere.
 */
import type { BBox, Position } from "../../model/geojson.js";

export const TOWN_NAME = "Basemodel Demo Town";

const CENTRE_LON = 1.2;
const CENTRE_LAT = 23.0;
/** Constants, not Math.cos: the same digits on every platform, whatever its libm. */
const METRES_PER_DEGREE_LAT = 110_760;
const METRES_PER_DEGREE_LON = 102_474; // 111,320 m × cos 23°

/** The street grid: blocks of BLOCK metres, COLUMNS × ROWS of them. */
export const BLOCK = 200;
export const COLUMNS = 8;
export const ROWS = 7;
export const WEST = (-COLUMNS * BLOCK) / 2;
export const SOUTH = (-ROWS * BLOCK) / 2;
/** Street centre line to the edge of the lots beside it. */
export const ROAD_RESERVE = 12;

const toGrid = (degrees: number): number => Math.round(degrees * 1e7) / 1e7;

/** The position `x` metres east and `y` metres north of the town centre. */
export function at(x: number, y: number): Position {
  return [toGrid(CENTRE_LON + x / METRES_PER_DEGREE_LON), toGrid(CENTRE_LAT + y / METRES_PER_DEGREE_LAT)];
}

/** A closed, counter-clockwise ring (RFC 7946's exterior winding) around a rectangle. */
export function rectangle(x: number, y: number, width: number, height: number): Position[] {
  return [at(x, y), at(x + width, y), at(x + width, y + height), at(x, y + height), at(x, y)];
}

function bboxOf(west: number, south: number, east: number, north: number): BBox {
  const [minX, minY] = at(west, south);
  const [maxX, maxY] = at(east, north);
  return { minX, minY, maxX, maxY };
}

export const DEMO_CENTRE: Position = at(0, 0);
/** Every feature of the demo lies inside this box. */
export const DEMO_BBOX: BBox = bboxOf(WEST, SOUTH, -WEST, -SOUTH);
/**
 * About 1 km² (1,004 m × 997 m) around the centre, in round figures for examples: the town
 * hall, the market, the park and over 100 buildings.
 */
export const DEMO_TEST_AREA: BBox = { minX: 1.1951, minY: 22.9955, maxX: 1.2049, maxY: 23.0045 };

export interface Street {
  name: string;
  highway: string;
  /** x of a north-south street, y of an east-west one. */
  offset: number;
}

const NORTH_SOUTH_NAMES = ["West Road", "Acacia Street", "Baobab Street", "Cedar Street", "Market Avenue", "Dune Street", "Ebony Street", "Fig Street", "East Road"];
const EAST_WEST_NAMES = ["South Road", "Well Street", "Oasis Street", "Station Road", "Caravan Street", "Salt Street", "Star Street", "North Road"];

function streets(names: readonly string[], start: number, main: number, mainHighway: string): Street[] {
  return names.map((name, index) => {
    const edge = index === 0 || index === names.length - 1;
    return { name, offset: start + index * BLOCK, highway: index === main ? mainHighway : edge ? "tertiary" : "residential" };
  });
}

/** West to east. Market Avenue (x = 0) is the main road. */
export const NORTH_SOUTH_STREETS = streets(NORTH_SOUTH_NAMES, WEST, 4, "primary");
/** South to north. Station Road (y = -100) crosses Market Avenue beside the town hall. */
export const EAST_WEST_STREETS = streets(EAST_WEST_NAMES, SOUTH, 3, "secondary");

/** Blocks given over to one use; every other block is houses. Indices count from the south-west block. */
export const SPECIAL_BLOCKS = {
  townHall: { column: 3, row: 3 },
  market: { column: 4, row: 3 },
  park: { column: 4, row: 4 },
  school: { column: 2, row: 5 },
  hospital: { column: 6, row: 1 },
} as const;

export const blockWest = (column: number): number => WEST + column * BLOCK;
export const blockSouth = (row: number): number => SOUTH + row * BLOCK;
