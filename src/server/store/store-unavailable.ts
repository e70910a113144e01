/**
 * Raised by a store whose database cannot be reached now (its server down, restarting or failing
 * over): the caller may try again later, and the server answers 503 rather than 500.
 */
export class StoreUnavailable extends Error {
  override name = "StoreUnavailable";
}
