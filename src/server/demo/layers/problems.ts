/**
 * Mapping mistakes, made on purpose so that every data quality status of the default quality rules
 * has something to show: the kind a validator meets after a mapathon. The buildings stand in
 * the backyards of house blocks, which the houses (kept to the street side of their lots) leave
 * empty, so each touches only what it is meant to and has only the one thing wrong with it.
 */
import type { Position } from "../../../model/geojson.js";
import type { DemoContext, DemoFeature, Layer } from "../context.js";
import { at, blockSouth, blockWest, rectangle, ROAD_RESERVE } from "../town.js";

/** A spot in a house block's backyards, 70 m in from its southern lot line: houses keep within 24 m of theirs. */
function backyard(column: number, row: number): { x: number; y: number } {
  return { x: blockWest(column) + ROAD_RESERVE + 60, y: blockSouth(row) + ROAD_RESERVE + 70 };
}

/** A rectangle whose north-east corner was dragged `shift` metres east: two corners are then off square. */
function skewed(x: number, y: number, width: number, depth: number, shift: number): Position[] {
  return [at(x, y), at(x + width, y), at(x + width + shift, y + depth), at(x, y + depth), at(x, y)];
}

const polygon = (ring: Position[]) => ({ type: "Polygon" as const, coordinates: [ring] });
const point = ({ x, y }: { x: number; y: number }) => ({ type: "Point" as const, coordinates: at(x, y) });

/** badgeom: corners 14° to 19° off square, beyond the default 10°. */
function unsquared({ feature }: DemoContext): DemoFeature[] {
  return (
    [
      [2, 2, "house", 12, 10, 3],
      [5, 3, "yes", 10, 9, 3],
      [1, 4, "shed", 6, 10, 2.5],
    ] as const
  ).map(([column, row, building, width, depth, shift]) => {
    const { x, y } = backyard(column, row);
    return feature("ways_poly", { building }, polygon(skewed(x, y, width, depth, shift)));
  });
}

/** overlapping: a garage drawn 2 m into the house beside it. */
function overlapping({ feature }: DemoContext): DemoFeature[] {
  const { x, y } = backyard(3, 2);
  return [
    feature("ways_poly", { building: "house" }, polygon(rectangle(x, y, 12, 9))),
    feature("ways_poly", { building: "garage" }, polygon(rectangle(x + 10, y + 3, 6, 5))),
  ];
}

/** duplicate: one building uploaded twice. */
function duplicated({ feature }: DemoContext): DemoFeature[] {
  const { x, y } = backyard(5, 2);
  const upload = () => feature("ways_poly", { building: "yes" }, polygon(rectangle(x, y, 10, 8)));
  return [upload(), upload()];
}

/** badvalue: a typo and a capital letter. */
function badValues({ feature }: DemoContext): DemoFeature[] {
  return (
    [
      [2, 4, "hosue"],
      [3, 5, "Yes"],
    ] as const
  ).map(([column, row, building]) => {
    const { x, y } = backyard(column, row);
    return feature("ways_poly", { building }, polygon(rectangle(x, y, 11, 9)));
  });
}

/** incomplete: places the default quality rules wants named, without a name. */
function unnamed({ feature }: DemoContext): DemoFeature[] {
  return [
    feature("nodes", { amenity: "clinic", healthcare: "clinic" }, point(backyard(4, 2))),
    feature("nodes", { amenity: "place_of_worship", religion: "christian" }, point(backyard(2, 3))),
  ];
}

export const problems: Layer = {
  name: "problems",
  build: (context) => [unsquared, overlapping, duplicated, badValues, unnamed].flatMap((build) => build(context)),
};
