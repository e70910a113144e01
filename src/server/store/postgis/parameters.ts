/** Bound parameters of one statement, numbered as PostgreSQL's $1, $2, ...: values never enter the SQL text. */
export class Parameters {
  readonly values: unknown[] = [];

  /** The placeholder of `value`, e.g. "$3". */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
