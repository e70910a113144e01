/**
 * The formats (date-time, uri, ...) Ajv's compiled code checks strings against, for the modules
 * the build generates that check one (scripts/ajv-modules.mjs imports them from here), apart from
 * the helpers of ajv-runtime.ts: ajv-formats' module takes about a millisecond to load, and the
 * item schema, which every run of validate loads, checks no format.
 */
export { fullFormats } from "ajv-formats/dist/formats.js";
