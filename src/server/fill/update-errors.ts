/** A change that cannot be applied; the store is left as it was. */
export class UpdateError extends Error {
  override readonly name = "UpdateError";
}
