// A map kept to a bound, for the caches held in a process's memory: what is remembered goes last
// (most recently used), and past the bound the oldest is dropped.
export class BoundedMap<Key, Value> extends Map<Key, Value> {
  constructor(private readonly limit: number) {
    super();
  }

  remember(key: Key, value: Value): void {
    this.delete(key);
    if (this.size >= this.limit) {
      const oldest = this.keys().next().value;
      if (oldest !== undefined) this.delete(oldest);
    }
    this.set(key, value);
  }
}
