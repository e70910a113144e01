/** The one error type an import throws for bad input: it names the file and the problem. */
export class OsmImportError extends Error {
  override readonly name = "OsmImportError";

  constructor(
    readonly file: string,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`Cannot import ${file}: ${problem}`, options);
  }
}
