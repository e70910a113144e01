/**
 * The blocks with one use each: the town hall (the multipolygon relation with a hole: its
 * courtyard), the market, the park, the school and the hospital.
 */
import type { Position } from "../../../model/geojson.js";
import type { DemoContext, DemoFeature, Layer } from "../context.js";
import { at, BLOCK, blockSouth, blockWest, rectangle, ROAD_RESERVE, SPECIAL_BLOCKS } from "../town.js";

type Block = { column: number; row: number };

/** The south-west corner of the block's buildable area, and its size. */
function site(block: Block): { x: number; y: number; size: number } {
  return { x: blockWest(block.column) + ROAD_RESERVE, y: blockSouth(block.row) + ROAD_RESERVE, size: BLOCK - 2 * ROAD_RESERVE };
}

const polygon = (ring: Position[]) => ({ type: "Polygon" as const, coordinates: [ring] });
const point = (x: number, y: number) => ({ type: "Point" as const, coordinates: at(x, y) });

function townHall({ feature }: DemoContext): DemoFeature[] {
  const { x, y, size } = site(SPECIAL_BLOCKS.townHall);
  const centreX = x + size / 2;
  const centreY = y + size / 2;
  const outer = rectangle(centreX - 35, centreY - 25, 70, 50);
  // Holes wind clockwise (RFC 7946), as the importer stores them.
  const courtyard = rectangle(centreX - 12, centreY - 8, 24, 16).reverse();
  const tags = {
    type: "multipolygon",
    building: "civic",
    amenity: "townhall",
    name: "Town Hall",
    "addr:street": "Market Avenue",
    "addr:housenumber": "1",
  };
  return [feature("relations", tags, { type: "Polygon", coordinates: [outer, courtyard] })];
}

function market({ random, feature }: DemoContext): DemoFeature[] {
  const { x, y, size } = site(SPECIAL_BLOCKS.market);
  const features = [feature("ways_poly", { amenity: "marketplace", name: "Central Market" }, polygon(rectangle(x, y, size, size)))];
  for (let row = 0; row < 3; row++) {
    for (let column = 0; column < 4; column++) {
      const stall = rectangle(x + 20 + column * 36, y + 30 + row * 44, random.int(10, 16), random.int(8, 12));
      features.push(feature("ways_poly", { building: "retail" }, polygon(stall)));
    }
  }
  return features;
}

function park({ feature }: DemoContext): DemoFeature[] {
  const { x, y, size } = site(SPECIAL_BLOCKS.park);
  const east = x + size;
  const north = y + size;
  // The north-east corner is cut off, so the park is not one more rectangle.
  const outline = [at(x, y), at(east, y), at(east, north - 40), at(east - 40, north), at(x, north), at(x, y)];
  return [
    feature("ways_poly", { leisure: "park", name: "Independence Park" }, polygon(outline)),
    feature("ways_line", { highway: "footway", surface: "paving_stones" }, { type: "LineString", coordinates: [at(x, y), at(x + size / 2, y + size / 2), at(east - 20, north - 20)] }),
    feature("ways_line", { highway: "footway", surface: "compacted" }, { type: "LineString", coordinates: [at(x, north), at(x + size / 2, y + size / 2), at(east, y)] }),
    feature("nodes", { amenity: "fountain" }, point(x + size / 2, y + size / 2)),
  ];
}

function school({ feature }: DemoContext): DemoFeature[] {
  const { x, y, size } = site(SPECIAL_BLOCKS.school);
  const name = "Demo Town Primary School";
  return [
    feature("ways_poly", { amenity: "school", name }, polygon(rectangle(x, y, size, size))),
    feature("ways_poly", { building: "school", "building:levels": "2", name }, polygon(rectangle(x + 10, y + size - 40, 90, 25))),
    feature("ways_poly", { building: "school" }, polygon(rectangle(x + 120, y + size - 60, 40, 45))),
    feature("ways_poly", { leisure: "pitch", sport: "soccer" }, polygon(rectangle(x + 20, y + 15, 100, 60))),
    feature("nodes", { amenity: "school", name, "isced:level": "1" }, point(x + 55, y + size - 28)),
  ];
}

function hospital({ feature }: DemoContext): DemoFeature[] {
  const { x, y, size } = site(SPECIAL_BLOCKS.hospital);
  const name = "Demo Town District Hospital";
  return [
    feature("ways_poly", { building: "hospital", "building:levels": "3", name }, polygon(rectangle(x + 40, y + 60, 96, 40))),
    feature("nodes", { amenity: "hospital", name, emergency: "yes", healthcare: "hospital" }, point(x + size / 2, y + 40)),
  ];
}

export const civic: Layer = {
  name: "civic",
  build: (context) => [townHall, market, park, school, hospital].flatMap((build) => build(context)),
};
