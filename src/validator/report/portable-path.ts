/** Where CI services look for a file. */
import { isAbsolute, relative, resolve, sep } from "node:path";

/**
 * The file's path relative to the working directory with "/" separators, as CI services expect
 * it (they resolve it against the checkout root). A file outside the working directory is
 * given by its absolute path: "../../x" would name nothing in the checkout.
 */
export function portablePath(file: string): string {
  const absolute = resolve(file);
  const inside = relative(process.cwd(), absolute);
  const outside = inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside);
  return (outside ? absolute : inside).split(sep).join("/");
}
