/** Points of interest: shops and services along Market Avenue, bus stops, and the town's own node. */
import type { DemoContext, DemoFeature, Layer } from "../context.js";
import { at, BLOCK, blockSouth, EAST_WEST_STREETS, ROWS, TOWN_NAME } from "../town.js";

interface PoiKind {
  tags: Record<string, string>;
  names: readonly string[];
  weight: number;
}

const KINDS: readonly PoiKind[] = [
  { tags: { amenity: "cafe" }, names: ["Café du Sahel", "Oasis Coffee", "The Dune Café"], weight: 5 },
  { tags: { amenity: "restaurant", cuisine: "regional" }, names: ["Chez Aïcha", "The Caravan", "Grill 23"], weight: 4 },
  { tags: { amenity: "pharmacy", healthcare: "pharmacy" }, names: ["Central Pharmacy", "Pharmacie de l'Avenue"], weight: 2 },
  { tags: { amenity: "bank" }, names: ["Demo Savings Bank", "Sahara Credit Union"], weight: 1 },
  { tags: { amenity: "place_of_worship", religion: "muslim" }, names: ["Market Mosque", "Mosque of the Well"], weight: 1 },
  { tags: { shop: "bakery" }, names: ["Golden Crust", "Morning Bread"], weight: 3 },
  { tags: { shop: "convenience" }, names: ["Corner Shop", "Everyday Store", "Quick Mart"], weight: 5 },
  { tags: { shop: "supermarket" }, names: ["Demo Supermarket"], weight: 1 },
  { tags: { shop: "clothes" }, names: ["Indigo Textiles", "Tailor Moussa"], weight: 2 },
  { tags: { shop: "hardware" }, names: ["Builders' Depot"], weight: 1 },
  { tags: { shop: "mobile_phone" }, names: ["Phone Point", "Signal Shop"], weight: 2 },
  { tags: { shop: "hairdresser" }, names: ["Fresh Cuts"], weight: 1 },
];

const AVENUE_SHOPS = 36;

/** A shop on either side of Market Avenue (x = 0), off the crossings. */
function avenueShop({ random, feature }: DemoContext): DemoFeature {
  const kind = random.weighted(KINDS.map((candidate) => [candidate, candidate.weight] as const));
  const x = random.pick([-1, 1]) * random.int(14, 22);
  const y = blockSouth(random.int(0, ROWS - 1)) + random.int(20, BLOCK - 20);
  const tags: Record<string, string> = { ...kind.tags, name: random.pick(kind.names) };
  if (random.chance(0.4)) tags["opening_hours"] = random.pick(["Mo-Sa 08:00-20:00", "Mo-Su 07:00-22:00", "Sa-Th 09:00-13:00,16:00-20:00"]);
  return feature("nodes", tags, { type: "Point", coordinates: at(x, y) });
}

/** A stop on the bus route at every other crossing of Market Avenue, named after the cross street. */
function busStops({ feature }: DemoContext): DemoFeature[] {
  return EAST_WEST_STREETS.filter((_, index) => index % 2 === 0).map((street) =>
    feature("nodes", { highway: "bus_stop", name: street.name, route_ref: "1" }, { type: "Point", coordinates: at(8, street.offset + 15) }),
  );
}

export const pois: Layer = {
  name: "pois",
  build(context) {
    const { feature } = context;
    return [
      feature("nodes", { place: "town", name: TOWN_NAME, population: "4200" }, { type: "Point", coordinates: at(0, 0) }),
      ...Array.from({ length: AVENUE_SHOPS }, () => avenueShop(context)),
      ...busStops(context),
      feature("nodes", { amenity: "police", name: "Police Station" }, { type: "Point", coordinates: at(-300, -85) }),
      feature("nodes", { amenity: "post_office", name: "Post Office" }, { type: "Point", coordinates: at(300, -85) }),
      feature("nodes", { amenity: "fuel", name: "Desert Fuel", brand: "Demo Petroleum" }, { type: "Point", coordinates: at(20, -680) }),
    ];
  },
};
