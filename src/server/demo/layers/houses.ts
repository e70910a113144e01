/** Houses on every ordinary block: two rows of lots, each row facing its street. */
import type { DemoContext, DemoFeature, Layer } from "../context.js";
import { BLOCK, blockSouth, blockWest, COLUMNS, EAST_WEST_STREETS, rectangle, ROAD_RESERVE, ROWS, SPECIAL_BLOCKS, TOWN_NAME } from "../town.js";

const LOTS_PER_ROW = 4;
const LOT_WIDTH = (BLOCK - 2 * ROAD_RESERVE) / LOTS_PER_ROW;
const BUILT_LOTS = 0.7;

const BUILDING_TYPES = [
  ["house", 45],
  ["yes", 25],
  ["residential", 20],
  ["commercial", 5],
  ["retail", 5],
] as const;

const isSpecial = (column: number, row: number): boolean =>
  Object.values(SPECIAL_BLOCKS).some((block) => block.column === column && block.row === row);

export const houses: Layer = {
  name: "houses",
  build(context) {
    const features: DemoFeature[] = [];
    for (let row = 0; row < ROWS; row++) {
      for (let column = 0; column < COLUMNS; column++) {
        if (isSpecial(column, row)) continue;
        for (let lot = 0; lot < LOTS_PER_ROW; lot++) {
          for (const facing of ["south", "north"] as const) {
            if (context.random.chance(BUILT_LOTS)) features.push(house(context, column, row, lot, facing));
          }
        }
      }
    }
    return features;
  },
};

/** A house on a lot of block (column, row), in the row facing the street to its south or north. */
function house({ random, feature }: DemoContext, column: number, row: number, lot: number, facing: "south" | "north"): DemoFeature {
  const width = random.int(8, 16);
  const depth = random.int(8, 14);
  const setback = random.int(3, 10);
  const x = blockWest(column) + ROAD_RESERVE + lot * LOT_WIDTH + random.int(2, LOT_WIDTH - width - 2);
  const y = facing === "south" ? blockSouth(row) + ROAD_RESERVE + setback : blockSouth(row) + BLOCK - ROAD_RESERVE - setback - depth;

  const tags: Record<string, string> = { building: random.weighted(BUILDING_TYPES) };
  if (random.chance(0.45)) {
    // Odd numbers on the north side of a street, even on the south, counting from the west.
    const street = EAST_WEST_STREETS[facing === "south" ? row : row + 1]!;
    const position = column * LOTS_PER_ROW + lot;
    tags["addr:street"] = street.name;
    tags["addr:housenumber"] = String(facing === "south" ? 2 * position + 1 : 2 * position + 2);
    tags["addr:city"] = TOWN_NAME;
  }
  if (random.chance(0.3)) tags["building:levels"] = String(random.int(1, 3));
  return feature("ways_poly", tags, { type: "Polygon", coordinates: [rectangle(x, y, width, depth)] });
}
