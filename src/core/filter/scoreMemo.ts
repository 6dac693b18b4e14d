/**
 * Scores already decided in a conversation, reused instead of re-scored: keyed by the
 * conversation, the scoring mode and the item's cleaned content hash. Bounded.
 */
import { sha256 } from '../pipeline/hash';

export interface ScoredItem {
  readonly score: number;
  readonly reason: string;
}

export class ScoreMemo {
  private readonly entries = new Map<string, ScoredItem>();
  constructor(private readonly maxEntries = 50_000) {}

  key(conversation: string, mode: string, content: string): string {
    return `${conversation}\u0000${mode}\u0000${sha256(content)}`;
  }
  get(key: string): ScoredItem | undefined {
    return this.entries.get(key);
  }
  set(key: string, item: ScoredItem): void {
    this.entries.set(key, item);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}
