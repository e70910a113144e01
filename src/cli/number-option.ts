import { InvalidArgumentError } from "commander";

/** A parser for a number option of at least `min` (and whole, when `whole`). */
export function numberAtLeast(min: number, whole: boolean): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (text.trim() === "" || !Number.isFinite(value) || value < min || (whole && !Number.isInteger(value))) {
      throw new InvalidArgumentError(`expected ${whole ? "an integer" : "a number"} of at least ${min}`);
    }
    return value;
  };
}
