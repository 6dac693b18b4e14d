/**
 * A memo of answers by text, bounded by the bytes it holds rather than by a count of entries
 * or a per-text length cut-off: a conversation repeats its whole history on every request, so
 * its long outputs are exactly the texts worth remembering, and a count alone would let a few
 * giant ones pin any amount of memory. The least recently used entries go first.
 */
export class BoundedMemo<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly weight: number }>();
  private held = 0;

  /**
   * @param maxWeight what the memo may hold, in the unit `weigh` returns (about bytes).
   * @param weigh what one entry costs to keep; the key's characters are added to it.
   */
  constructor(private readonly maxWeight: number, private readonly weigh: (value: V) => number = () => 0) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Most recently used last, so eviction from the front drops the coldest.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Remembers `value` for `key`, unless it alone would fill more than a quarter of the memo. */
  set(key: string, value: V): void {
    const weight = key.length * 2 + this.weigh(value) + ENTRY_OVERHEAD;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.held -= previous.weight;
    }
    if (weight > this.maxWeight / 4) return;
    this.entries.set(key, { value, weight });
    this.held += weight;
    while (this.held > this.maxWeight) {
      const [oldest, entry] = this.entries.entries().next().value as [string, { weight: number }];
      this.entries.delete(oldest);
      this.held -= entry.weight;
    }
  }

  /** The value for `key`, computed by `compute` and remembered when it is not known yet. */
  getOrCompute(key: string, compute: (key: string) => V): V {
    const known = this.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    this.set(key, value);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the memo holds now, in the unit of its bound. */
  get weight(): number {
    return this.held;
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }
}

/** What a map entry and its bookkeeping cost beyond the key and value, roughly. */
const ENTRY_OVERHEAD = 64;
