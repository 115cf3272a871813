/**
 * A least-recently-used map bounded by total weight (1 per entry unless `set` says otherwise): a
 * hit moves the entry to the back, an insert past the capacity drops entries from the front.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, weight = 1): void {
    this.delete(key);
    this.entries.set(key, { value, weight });
    this.total += weight;
    while (this.total > this.capacity) this.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /** Entries kept. */
  get size(): number {
    return this.entries.size;
  }

  /** Total weight of the entries kept. */
  get weight(): number {
    return this.total;
  }

  private delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }
}
