/** The JSON files of a folder, read as the differential tests read their inputs. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Json } from "./json-edit.js";

/** Every .json file below `dir`, sorted, but the manifests beside fixtures; none when `dir` is absent. */
export function jsonFiles(dir: string, manifests: readonly string[] = ["expected.json", "README.json"]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith(".json") && !manifests.includes(path.basename(name))).sort().map((name) => path.join(dir, name));
}

/** The file's JSON value, or undefined when its text is not JSON (a syntax or encoding fixture). */
export function readJson(file: string): Json | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Json;
  } catch {
    return undefined;
  }
}
