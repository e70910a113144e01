/** A JSON Schema as plain data: what the validator builds, bundles and walks. */
export type JsonSchema = { [key: string]: unknown };
