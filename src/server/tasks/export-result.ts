/**
 * What an export task leaves: a snapshot's file, or a custom export's zips. Types and a guard
 * only, so that the CLI can read results without loading the exporters (and their optional
 * dependencies) before it has checked that they are installed.
 */
import type { CustomExportOutcome } from "../exports/custom.js";
import type { SnapshotOutcome } from "../exports/snapshot.js";

export type ExportTaskResult = SnapshotOutcome | CustomExportOutcome;

export const isCustomOutcome = (result: ExportTaskResult): result is CustomExportOutcome => "kind" in result && result.kind === "custom";
