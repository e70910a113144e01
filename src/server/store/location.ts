/** Where a store lives: a file path, or a PostgreSQL URL. */
import { resolve } from "node:path";
import { withoutPassword } from "../errors.js";

/** True for a location that names a PostgreSQL database rather than a file. */
export function isDatabaseUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The location as it reads from any working folder: a file's absolute path, a URL as it is. */
export function absoluteLocation(location: string): string {
  return isDatabaseUrl(location) ? location : resolve(location);
}

/** The location as messages show it: a database URL without its password. */
export function shownLocation(location: string): string {
  return isDatabaseUrl(location) ? withoutPassword(location) : location;
}
