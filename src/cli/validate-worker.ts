/**
 * The entry of a worker thread of `basemodel validate` (validate-threads.ts), an entry of the
 * CLI's bundle of its own (scripts/build.mjs).
 */
import { workOnChunks } from "./validate-threads.js";

await workOnChunks();
