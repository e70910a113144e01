/**
 * The parts of terra-draw the page draws with, in one module that draw.ts loads on the first Draw
 * press: imported by name here, the bundle holds these alone (an import() of the package itself
 * would hold all of it, every mode).
 */
export { TerraDraw, TerraDrawPolygonMode, TerraDrawRectangleMode, ValidateNotSelfIntersecting } from "terra-draw";
export { TerraDrawMapLibreGLAdapter } from "terra-draw-maplibre-gl-adapter";
