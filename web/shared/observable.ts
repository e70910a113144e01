/** A value the parts of a page share, and who to tell when it changes. */
export class Observable<T> {
  #listeners: Array<(value: T) => void> = [];

  constructor(private current: T) {}

  get value(): T {
    return this.current;
  }

  set(value: T): void {
    this.current = value;
    for (const listener of this.#listeners) listener(value);
  }

  /** Calls `listener` with each new value (not with the current one). */
  subscribe(listener: (value: T) => void): void {
    this.#listeners.push(listener);
  }
}
