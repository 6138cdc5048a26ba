/** A map of at most `max` entries, the least recently used dropped: what the server remembers per caller. */
export class Lru<K, V> {
  readonly #map = new Map<K, V>();

  constructor(readonly max: number) {}

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  set(key: K, value: V): this {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.max) this.#map.delete(this.#map.keys().next().value as K);
    return this;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }

  entries(): IterableIterator<[K, V]> {
    return this.#map.entries();
  }
}
