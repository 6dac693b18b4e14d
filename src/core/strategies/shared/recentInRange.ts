/**
 * Items added one by one with a whole-number size; asks for the most recently added items whose
 * size lies in a range, newest first, at most k of them. A segment tree over the sizes that can
 * occur, each node keeping its k newest items: adding is O(k log n), asking O(k log n), where a
 * scan back over every earlier item was O(n) per question (quadratic over a conversation).
 */
export class RecentInRange<T> {
  /** The distinct sizes, ascending: leaf i of the tree stands for sizes[i]. */
  private readonly sizes: number[];
  private readonly leaves: number;
  /** Per tree node, its k newest items (newest first) with their insertion order. */
  private readonly nodes: { readonly order: number; readonly item: T }[][];
  private added = 0;

  /**
   * @param sizes every size an item may be added with (others are refused).
   * @param keep how many of the newest items a question may ask for (k).
   */
  constructor(sizes: Iterable<number>, private readonly keep: number) {
    this.sizes = [...new Set(sizes)].sort((left, right) => left - right);
    this.leaves = Math.max(1, this.sizes.length);
    this.nodes = Array.from({ length: 2 * this.leaves }, () => []);
  }

  add(size: number, item: T): void {
    const leaf = this.leafOf(size);
    if (leaf === undefined) throw new Error(`Herald: size ${size} was not declared to RecentInRange`);
    if (this.keep === 0) return;
    const entry = { order: this.added++, item };
    // Bottom-up over the leaf's ancestors; the new item is the newest everywhere it goes.
    for (let node = leaf + this.leaves; node >= 1; node >>= 1) {
      const list = this.nodes[node]!;
      list.unshift(entry);
      if (list.length > this.keep) list.pop();
    }
  }

  /** The newest items (at most `limit`, at most k) whose size is within [low, high], newest first. */
  newestWithin(low: number, high: number, limit = this.keep): T[] {
    const from = lowerBound(this.sizes, low);
    const to = upperBound(this.sizes, high);
    if (from >= to || limit <= 0) return [];
    const lists: { readonly order: number; readonly item: T }[][] = [];
    // Canonical cover of the leaf range [from, to), bottom-up.
    for (let left = from + this.leaves, right = to + this.leaves; left < right; left >>= 1, right >>= 1) {
      if (left & 1) lists.push(this.nodes[left++]!);
      if (right & 1) lists.push(this.nodes[--right]!);
    }
    const heads = lists.map(() => 0);
    const out: T[] = [];
    const want = Math.min(limit, this.keep);
    while (out.length < want) {
      let best = -1;
      for (let list = 0; list < lists.length; list++) {
        const head = lists[list]![heads[list]!];
        if (head !== undefined && (best < 0 || head.order > lists[best]![heads[best]!]!.order)) best = list;
      }
      if (best < 0) break;
      out.push(lists[best]![heads[best]!++]!.item);
    }
    return out;
  }

  private leafOf(size: number): number | undefined {
    const index = lowerBound(this.sizes, size);
    return this.sizes[index] === size ? index : undefined;
  }
}

/** First index whose value is ≥ `value`. */
function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** First index whose value is > `value`. */
function upperBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}
