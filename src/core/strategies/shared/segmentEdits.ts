/**
 * Collects a strategy's elisions over tool-output segments and turns them into a result:
 * every replacement goes through the stash (so it expands back byte for byte), handles and
 * counts are gathered for the decision, and the request is rebuilt once at the end.
 */
import { replaceSegments, type ToolOutputSegment } from '../../chat/toolOutput';
import type { ChatRequest } from '../../chat/types';
import type { StrategyContext, StrategyResult } from '../../pipeline/types';
import { paysForCacheWrite } from '../../pipeline/cacheEconomics';

/** One segment to elide and how its replacement reads. */
export interface SegmentElision {
  /** The segment; `arrived` set when its text is already a digest of that original. */
  readonly segment: ToolOutputSegment & { readonly arrived?: string };
  /** Marker summary: what was removed and how much, no more than one line. */
  readonly summary: string;
  /** Builds the replacement text around the marker; default the marker alone. */
  readonly render?: (marker: string) => string;
}

/** One strategy run's elisions over tool-output segments. */
export class SegmentEdits {
  private readonly replacements = new Map<string, string>();
  private readonly handles: string[] = [];
  private tokensSaved = 0;

  constructor(private readonly strategyId: string, private readonly context: Pick<StrategyContext, 'stash' | 'tokens' | 'freshStart' | 'cachedRewriteMinSavedShare' | 'rewrites'>) {}

  /**
   * Stashes the segment's text and records its replacement, unless the replacement would not
   * save at least `minSavedTokens` and `minSavedRatio` of the segment's tokens, or, for an
   * output in history (the provider has it cached), not enough to pay for the cache write
   * (see `pipeline/cacheEconomics.ts`). Returns whether the elision was kept.
   */
  elide(elision: SegmentElision, minSavedTokens = 1, minSavedRatio = 0): boolean {
    const { segment } = elision;
    // A digest elided again stashes the output it digested, not the digest: one hop to the original.
    const input = { original: segment.arrived ?? segment.text, summary: elision.summary, kind: this.strategyId, render: elision.render };
    // Price the replacement before stashing, so an unprofitable elision leaves no entry behind.
    const before = this.context.tokens.count(segment.text);
    const after = this.context.tokens.count(this.context.stash.preview(input).replacement);
    const saved = before - after;
    if (saved < minSavedTokens || saved < minSavedRatio * before) return false;
    if (segment.messageIndex < this.context.freshStart && !this.paysInHistory(segment.messageIndex, before, after)) return false;
    // Fresh input is not cached yet, but an elision of it still risks a retrieve round (cacheEconomics.ts).
    if (segment.messageIndex >= this.context.freshStart && this.context.rewrites && !this.context.rewrites.paysFresh(before, after, segment.arrived === undefined ? before : this.context.tokens.count(segment.arrived))) return false;
    const result = this.context.stash.elide(input);
    this.replacements.set(segment.key, result.replacement);
    this.handles.push(result.handle);
    this.tokensSaved += saved;
    return true;
  }

  /** A history output is cached as it stood: its rewrite is priced (see `pipeline/cacheEconomics.ts`). */
  private paysInHistory(messageIndex: number, before: number, after: number): boolean {
    const rewrites = this.context.rewrites;
    return rewrites ? rewrites.pays(messageIndex, before, after) : paysForCacheWrite(before, after, this.context.cachedRewriteMinSavedShare);
  }

  get count(): number {
    return this.replacements.size;
  }

  /** The result: the rewritten request and a metadata-only decision. */
  result(
    request: ChatRequest,
    done: { action: string; reason: string },
    idle: { action: string; reason: string },
    details: Readonly<Record<string, string | number | boolean>> = {},
  ): StrategyResult {
    if (this.replacements.size === 0) return { request, ...idle, details };
    return {
      request: replaceSegments(request, this.replacements),
      ...done,
      handles: this.handles,
      details: { ...details, segments: this.replacements.size, tokensSaved: this.tokensSaved },
    };
  }
}
