/**
 * GEOS (geos-wasm) behind a small typed wrapper, and the exact area test built on it.
 *
 * geos-wasm exposes the raw C API: every geometry lives in WebAssembly memory and must be
 * freed by hand, and that memory never shrinks. Everything here that creates a GEOS object
 * also frees it, on the error paths too.
 *
 * geos-wasm is loaded lazily, on first use, so merely loading the package never requires it.
 */
import type initGeosJs from "geos-wasm";
import { geometryBBox } from "../../model/geojson.js";
import type { BBox, Geometry, Position } from "../../model/geojson.js";
import type { AreaFilter } from "../../model/query.js";
import { boxInInterior, boxWithin, isBoxShaped } from "./rectangle.js";
import type { PolygonalGeometry } from "../../model/geojson.js";

type GeosModule = Awaited<ReturnType<typeof initGeosJs>>;

/** A GEOS geometry: a pointer into WebAssembly memory. */
export type GeosPointer = number;

/** A DE-9IM pattern copied into WebAssembly memory once, for many relate tests. */
export type GeosPattern = number;

// GEOS geometry type ids (geos_c.h, GEOSGeomTypes).
const GEOS_POLYGON = 3;
const GEOS_MULTILINESTRING = 5;
const GEOS_MULTIPOLYGON = 6;
const GEOS_GEOMETRYCOLLECTION = 7;

/** A GEOS call failed; the message is GEOS's own. */
export class GeosError extends Error {
  override name = "GeosError";
}

/** Where GEOS finds a polygon invalid, as GEOSisValidDetail reports it. */
export interface GeosInvalidity {
  reason: string;
  x: number;
  y: number;
}

/** The GEOS functions this project uses, each freeing what it allocates. */
export class Geos {
  constructor(
    private readonly module: GeosModule,
    private readonly takeError: () => string | undefined,
  ) {}

  /** A new GEOS geometry; the caller frees it with destroy(). */
  create(geometry: Geometry): GeosPointer {
    switch (geometry.type) {
      case "Point":
        return this.check(this.module.GEOSGeom_createPointFromXY(geometry.coordinates[0], geometry.coordinates[1]), "create a point");
      case "LineString":
        return this.lineString(geometry.coordinates);
      case "MultiLineString":
        return this.collection(GEOS_MULTILINESTRING, geometry.coordinates, (line) => this.lineString(line));
      case "Polygon":
        return this.polygon(geometry.coordinates);
      case "MultiPolygon":
        return this.collection(GEOS_MULTIPOLYGON, geometry.coordinates, (rings) => this.polygon(rings));
    }
  }

  destroy(pointer: GeosPointer): void {
    this.module.GEOSGeom_destroy(pointer);
  }

  /** Runs `use` on a temporary GEOS copy of `geometry`, freed afterwards whatever happens. */
  with<T>(geometry: Geometry, use: (pointer: GeosPointer) => T): T {
    const pointer = this.create(geometry);
    try {
      return use(pointer);
    } finally {
      this.destroy(pointer);
    }
  }

  /** Null when GEOS finds the geometry valid (OGC rules), otherwise its reason and location. */
  invalidity(pointer: GeosPointer): GeosInvalidity | null {
    const { module } = this;
    // Two out-parameters: a char* for the reason and a GEOSGeometry* for the location.
    const slots = module.Module._malloc(8);
    try {
      module.Module.HEAPU32[slots / 4] = 0;
      module.Module.HEAPU32[slots / 4 + 1] = 0;
      const result = module.GEOSisValidDetail(pointer, 0, slots, slots + 4);
      const reasonPointer = module.Module.HEAPU32[slots / 4]!;
      const locationPointer = module.Module.HEAPU32[slots / 4 + 1]!;
      try {
        if (result === 2) throw new GeosError(`GEOS could not check validity: ${this.takeError() ?? "unknown error"}`);
        if (result === 1) return null;
        const reason = reasonPointer ? module.Module.UTF8ToString(reasonPointer) : "Invalid geometry";
        const [x, y] = locationPointer ? this.pointXY(locationPointer) : [NaN, NaN];
        return { reason, x, y };
      } finally {
        if (reasonPointer) module.GEOSFree(reasonPointer);
        if (locationPointer) module.GEOSGeom_destroy(locationPointer);
      }
    } finally {
      module.Module._free(slots);
    }
  }

  /** A prepared geometry (indexed for repeated predicates) of `pointer`, which must outlive it. */
  prepare(pointer: GeosPointer): GeosPointer {
    return this.check(this.module.GEOSPrepare(pointer), "prepare a geometry");
  }

  destroyPrepared(prepared: GeosPointer): void {
    this.module.GEOSPreparedGeom_destroy(prepared);
  }

  preparedIntersects(prepared: GeosPointer, pointer: GeosPointer): boolean {
    return this.predicate(this.module.GEOSPreparedIntersects(prepared, pointer), "intersects");
  }

  /** Like preparedIntersects for a point, without creating a point geometry. */
  preparedIntersectsXY(prepared: GeosPointer, x: number, y: number): boolean {
    return this.predicate(this.module.GEOSPreparedIntersectsXY(prepared, x, y), "intersects");
  }

  /** True when the prepared geometry contains `pointer`: no part of it outside, some part inside (its ST_Within). */
  preparedContains(prepared: GeosPointer, pointer: GeosPointer): boolean {
    return this.predicate(this.module.GEOSPreparedContains(prepared, pointer), "contains");
  }

  /** Like preparedContains for a point, without creating a point geometry: the point lies in the interior. */
  preparedContainsXY(prepared: GeosPointer, x: number, y: number): boolean {
    return this.predicate(this.module.GEOSPreparedContainsXY(prepared, x, y), "contains");
  }

  /** True when the prepared geometry contains the box (GEOS makes a flat box a point or a line). */
  preparedContainsBox(prepared: GeosPointer, bbox: BBox): boolean {
    return this.withBox(bbox, (box) => this.preparedContains(prepared, box));
  }

  /** True when the box lies in the prepared geometry's interior, its edges too. */
  preparedContainsBoxProperly(prepared: GeosPointer, bbox: BBox): boolean {
    return this.withBox(bbox, (box) => this.predicate(this.module.GEOSPreparedContainsProperly(prepared, box), "contains properly"));
  }

  /**
   * The union of valid polygons (each a Polygon or MultiPolygon) as one Polygon or MultiPolygon:
   * overlapping and adjacent polygons become one, as PostGIS's ST_Union makes them.
   */
  unionPolygons(polygons: readonly PolygonalGeometry[]): PolygonalGeometry {
    const collection = this.collection(GEOS_GEOMETRYCOLLECTION, [...polygons], (polygon) => this.create(polygon));
    try {
      const union = this.check(this.module.GEOSUnaryUnion(collection), "unite the polygons");
      try {
        return this.polygonalOf(union);
      } finally {
        this.destroy(union);
      }
    } finally {
      this.destroy(collection);
    }
  }

  /** The pattern (9 characters of "012TF*", see GEOSRelatePattern) in WebAssembly memory; free it with freePattern(). */
  pattern(text: string): GeosPattern {
    if (!/^[012TF*]{9}$/.test(text)) throw new GeosError(`${JSON.stringify(text)} is not a DE-9IM pattern`);
    const { Module } = this.module;
    const pattern = Module._malloc(text.length + 1);
    Module.stringToUTF8(text, pattern, text.length + 1);
    return pattern;
  }

  freePattern(pattern: GeosPattern): void {
    this.module.Module._free(pattern);
  }

  /** True when the DE-9IM matrix of the prepared geometry and `pointer` matches `pattern`. */
  preparedRelatePattern(prepared: GeosPointer, pointer: GeosPointer, pattern: GeosPattern): boolean {
    return this.predicate(this.module.GEOSPreparedRelatePattern(prepared, pointer, pattern), "relate");
  }

  private withBox<T>(bbox: BBox, use: (box: GeosPointer) => T): T {
    const box = this.check(this.module.GEOSGeom_createRectangle(bbox.minX, bbox.minY, bbox.maxX, bbox.maxY), "create a rectangle");
    try {
      return use(box);
    } finally {
      this.destroy(box);
    }
  }

  /** A GEOS Polygon or MultiPolygon as GeoJSON. */
  private polygonalOf(pointer: GeosPointer): PolygonalGeometry {
    const type = this.module.GEOSGeomTypeId(pointer);
    if (type === GEOS_POLYGON) return { type: "Polygon", coordinates: this.rings(pointer) };
    if (type !== GEOS_MULTIPOLYGON) throw new GeosError(`GEOS made a geometry of type ${type}, not a Polygon or a MultiPolygon`);
    const count = this.module.GEOSGetNumGeometries(pointer);
    // GEOSGetGeometryN hands out parts the collection still owns: they are not freed here.
    return { type: "MultiPolygon", coordinates: Array.from({ length: count }, (_, index) => this.rings(this.module.GEOSGetGeometryN(pointer, index))) };
  }

  private rings(polygon: GeosPointer): Position[][] {
    const holes = this.module.GEOSGetNumInteriorRings(polygon);
    const rings = [this.module.GEOSGetExteriorRing(polygon), ...Array.from({ length: holes }, (_, index) => this.module.GEOSGetInteriorRingN(polygon, index))];
    return rings.map((ring) => this.positions(this.module.GEOSGeom_getCoordSeq(ring)));
  }

  private positions(sequence: GeosPointer): Position[] {
    const { Module } = this.module;
    const sizeSlot = Module._malloc(4);
    let size: number;
    try {
      if (!this.module.GEOSCoordSeq_getSize(sequence, sizeSlot)) throw new GeosError(`GEOS could not measure a coordinate sequence: ${this.takeError() ?? "unknown error"}`);
      size = Module.HEAPU32[sizeSlot / 4]!;
    } finally {
      Module._free(sizeSlot);
    }
    const buffer = Module._malloc(Math.max(1, size) * 16);
    try {
      if (!this.module.GEOSCoordSeq_copyToBuffer(sequence, buffer, 0, 0)) throw new GeosError(`GEOS could not read a coordinate sequence: ${this.takeError() ?? "unknown error"}`);
      // Read HEAPF64 after _malloc: growing the WebAssembly memory replaces the array.
      const heap = Module.HEAPF64;
      return Array.from({ length: size }, (_, index): Position => [heap[buffer / 8 + 2 * index]!, heap[buffer / 8 + 2 * index + 1]!]);
    } finally {
      Module._free(buffer);
    }
  }

  private pointXY(point: GeosPointer): [number, number] {
    const { Module } = this.module;
    const out = Module._malloc(16);
    try {
      this.module.GEOSGeomGetX(point, out);
      this.module.GEOSGeomGetY(point, out + 8);
      return [Module.HEAPF64[out / 8]!, Module.HEAPF64[out / 8 + 1]!];
    } finally {
      Module._free(out);
    }
  }

  private predicate(result: number, name: string): boolean {
    if (result === 2) throw new GeosError(`GEOS could not compute ${name}: ${this.takeError() ?? "unknown error"}`);
    return result === 1;
  }

  private check(pointer: GeosPointer, what: string): GeosPointer {
    if (!pointer) throw new GeosError(`GEOS could not ${what}: ${this.takeError() ?? "unknown error"}`);
    return pointer;
  }

  private coordinateSequence(positions: Position[]): GeosPointer {
    const { Module } = this.module;
    const buffer = Module._malloc(positions.length * 16);
    try {
      // Read HEAPF64 after _malloc: growing the WebAssembly memory replaces the array.
      const heap = Module.HEAPF64;
      let index = buffer / 8;
      for (const position of positions) {
        heap[index++] = position[0];
        heap[index++] = position[1];
      }
      return this.check(this.module.GEOSCoordSeq_copyFromBuffer(buffer, positions.length, 0, 0), "create a coordinate sequence");
    } finally {
      Module._free(buffer);
    }
  }

  // The GEOSGeom_create* constructors take ownership of the parts passed to them (sequences,
  // rings, members), so only parts not yet handed over are freed here on an error. Freeing
  // the parts of a failed constructor could free them twice; with our own well-formed parts
  // such a failure means GEOS ran out of memory anyway.
  private lineString(positions: Position[]): GeosPointer {
    return this.check(this.module.GEOSGeom_createLineString(this.coordinateSequence(positions)), "create a line");
  }

  private linearRing(positions: Position[]): GeosPointer {
    return this.check(this.module.GEOSGeom_createLinearRing(this.coordinateSequence(positions)), "create a ring");
  }

  private polygon(rings: Position[][]): GeosPointer {
    if (rings.length === 0) return this.check(this.module.GEOSGeom_createEmptyPolygon(), "create an empty polygon");
    const made: GeosPointer[] = [];
    try {
      for (const ring of rings) made.push(this.linearRing(ring));
    } catch (error) {
      made.forEach((ring) => this.destroy(ring));
      throw error;
    }
    const [shell, ...holes] = made;
    return this.withPointerArray(holes, (holesPointer) =>
      this.check(this.module.GEOSGeom_createPolygon(shell!, holesPointer, holes.length), "create a polygon"),
    );
  }

  private collection<T>(type: number, parts: T[], create: (part: T) => GeosPointer): GeosPointer {
    const made: GeosPointer[] = [];
    try {
      for (const part of parts) made.push(create(part));
    } catch (error) {
      made.forEach((part) => this.destroy(part));
      throw error;
    }
    return this.withPointerArray(made, (array) => this.check(this.module.GEOSGeom_createCollection(type, array, made.length), "create a collection"));
  }

  private withPointerArray<T>(pointers: GeosPointer[], use: (array: number) => T): T {
    const { Module } = this.module;
    const array = pointers.length === 0 ? 0 : Module._malloc(pointers.length * 4);
    try {
      if (array) Module.HEAPU32.set(pointers, array / 4);
      return use(array);
    } finally {
      if (array) Module._free(array);
    }
  }
}

let loading: Promise<Geos> | undefined;

/** The GEOS wrapper; geos-wasm is loaded and initialised on the first call only. */
export function loadGeos(): Promise<Geos> {
  loading ??= (async () => {
    let initialise: typeof initGeosJs;
    try {
      initialise = (await import("geos-wasm")).default;
    } catch (error) {
      loading = undefined;
      throw new Error("Exact geometry tests need the dependency geos-wasm: run `npm install geos-wasm@3`", { cause: error });
    }
    // GEOS reports errors through this callback, then returns NULL or 2. geos-wasm's default
    // callback throws, which unwinds through C++ frames without running their destructors and
    // leaks; keeping the message and throwing from our own code after the call does not.
    let lastError: string | undefined;
    const module = await initialise({ errorHandler: (message) => void (lastError = message) });
    return new Geos(module, () => {
      const message = lastError;
      lastError = undefined;
      return message;
    });
  })();
  return loading;
}

/**
 * The exact test of a query's area, in process: for whoever tests its candidates itself (the
 * SQLite store, its reports). Prepared from the area's data for one query, and freed when the
 * query ends; its GEOS objects are freed by dispose() or, failing that, by the GC.
 */
export interface PreparedArea {
  /** True when the geometry intersects the area (exact geometry, not bounding boxes). */
  intersects(geometry: Geometry): boolean;
  /**
   * True when the box lies wholly inside the area, so that whatever lies in the box
   * intersects it without an exact test. False means "test exactly", not "outside".
   */
  containsBox(bbox: BBox): boolean;
  /** True when the geometry lies within the area (PostGIS's ST_Within): no part outside it, and not only on its edge. */
  within(geometry: Geometry): boolean;
  /** True when the box lies in the area's interior, so that whatever lies in the box is within the area. */
  interiorContainsBox(bbox: BBox): boolean;
  /** Frees what the test holds in GEOS memory; a second call does nothing. */
  dispose(): void;
}

/** Everywhere holds everything: no GEOS to load, nothing to free. */
const EVERYWHERE_TEST: PreparedArea = {
  intersects: () => true,
  containsBox: () => true,
  within: () => true,
  interiorContainsBox: () => true,
  dispose: () => undefined,
};

interface AreaHandles {
  geos: Geos;
  geometry: GeosPointer;
  prepared: GeosPointer;
}

function freeArea(handles: AreaHandles): void {
  handles.geos.destroyPrepared(handles.prepared);
  handles.geos.destroy(handles.geometry);
}

// A query whose iterator is dropped without return() never reaches its finally: its area must
// not leak WebAssembly memory for the life of the process.
const unreleased = new FinalizationRegistry<AreaHandles>(freeArea);

/**
 * The exact test of `area`, prepared once for every test of one query. The polygon must be
 * valid: the request layer checks it with polygonProblems() (this throws a GeosError for input
 * GEOS cannot build or test). Free it with dispose() when the query ends, in a finally.
 */
export async function prepareArea(area: Pick<AreaFilter, "geometry">): Promise<PreparedArea> {
  const polygon = area.geometry;
  if (polygon === null) return EVERYWHERE_TEST;
  const geos = await loadGeos();
  const geometry = geos.create(polygon);
  let prepared: GeosPointer;
  try {
    prepared = geos.prepare(geometry);
  } catch (error) {
    geos.destroy(geometry);
    throw error;
  }
  const bbox = geometryBBox(polygon);
  return new GeosArea({ geos, geometry, prepared }, bbox, isBoxShaped(polygon, bbox));
}

/** Runs `use` with the exact test of `area`, freed afterwards however `use` ends. */
export async function withPreparedArea<T>(area: Pick<AreaFilter, "geometry">, use: (prepared: PreparedArea) => T | Promise<T>): Promise<T> {
  const prepared = await prepareArea(area);
  try {
    return await use(prepared);
  } finally {
    prepared.dispose();
  }
}

class GeosArea implements PreparedArea {
  private handles: AreaHandles | null;

  constructor(
    handles: AreaHandles,
    private readonly bbox: BBox,
    /** The area is its bounding box: a box is inside it when it is inside the bounding box. */
    private readonly boxShaped: boolean,
  ) {
    this.handles = handles;
    unreleased.register(this, handles, this);
  }

  intersects(geometry: Geometry): boolean {
    const { geos, prepared } = this.live();
    if (geometry.type === "Point") {
      const [x, y] = geometry.coordinates;
      const { bbox } = this;
      if (x < bbox.minX || x > bbox.maxX || y < bbox.minY || y > bbox.maxY) return false;
      if (this.boxShaped) return true;
      return geos.preparedIntersectsXY(prepared, x, y);
    }
    return geos.with(geometry, (pointer) => geos.preparedIntersects(prepared, pointer));
  }

  containsBox(bbox: BBox): boolean {
    const { geos, prepared } = this.live();
    if (this.boxShaped) return boxWithin(bbox, this.bbox);
    return geos.preparedContainsBox(prepared, bbox);
  }

  within(geometry: Geometry): boolean {
    const { geos, prepared } = this.live();
    if (geometry.type === "Point") {
      const [x, y] = geometry.coordinates;
      if (this.boxShaped) return boxInInterior({ minX: x, minY: y, maxX: x, maxY: y }, this.bbox);
      return geos.preparedContainsXY(prepared, x, y);
    }
    return geos.with(geometry, (pointer) => geos.preparedContains(prepared, pointer));
  }

  interiorContainsBox(bbox: BBox): boolean {
    const { geos, prepared } = this.live();
    if (this.boxShaped) return boxInInterior(bbox, this.bbox);
    return geos.preparedContainsBoxProperly(prepared, bbox);
  }

  private live(): AreaHandles {
    if (!this.handles) throw new Error("This area was disposed of");
    return this.handles;
  }

  dispose(): void {
    if (!this.handles) return;
    unreleased.unregister(this);
    freeArea(this.handles);
    this.handles = null;
  }
}
