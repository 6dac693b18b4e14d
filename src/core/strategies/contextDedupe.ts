/**
 * context_dedupe: a tool output the model has already seen (a re-read file, a re-run
 * `git status` or test suite) becomes a one-line marker pointing at the first copy; a
 * near-duplicate becomes a marker plus a zero-context diff of what changed.
 *
 * The first copy stays verbatim and is the only thing a collapsed copy may point at: a copy
 * is compared with earlier outputs that are still verbatim in the request, so the pointer
 * always leads to readable text. Outputs answering a retrieval are never collapsed, so a
 * retrieval cannot loop back into the marker it resolved. History only, decided once
 * (see `shared/turns.ts` for how `keepRecentTurns` reads under decide-once).
 */
import type { z } from 'zod';
import { findToolOutputs, type ToolOutputSegment } from '../chat/toolOutput';
import type { ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import type { StrategyEnvironment } from './environment';
import { diffLines, type LineDiff } from './shared/lineDiff';
import { RecentInRange } from './shared/recentInRange';
import { BoundedMemo } from '../boundedMemo';
import type { Deadline } from '../pipeline/deadline';
import { booleanOption, numberOption } from './shared/options';
import { SegmentEdits } from './shared/segmentEdits';
import { editableSegments, hasMarker, originalSegmentTexts } from './shared/segmentSelection';
import { recentTurnGuard } from './shared/turns';
import { optionDefaults } from '../pipeline/optionSchema';
import { CONTEXT_DEDUPE_OPTIONS } from './options/contextDedupeOptions';

/** Options of context_dedupe, as its schema in `options/` declares them (type, default, bounds, description). */
export type ContextDedupeOptions = Readonly<z.output<typeof CONTEXT_DEDUPE_OPTIONS>>;

/** The defaults of every context_dedupe option, from its schema in options/. */
export const CONTEXT_DEDUPE_DEFAULTS: ContextDedupeOptions = optionDefaults(CONTEXT_DEDUPE_OPTIONS);

/** Builds the context_dedupe strategy; it needs nothing from the host. */
export function createContextDedupe(_environment: StrategyEnvironment = {}): Strategy {
  const lineCache = new LineCache();
  return {
    id: 'context_dedupe',
    defaultEnabled: true,
    kind: 'transform',
    defaults: { ...CONTEXT_DEDUPE_DEFAULTS },
    optionSchema: CONTEXT_DEDUPE_OPTIONS,
    apply: (request, context) => dedupe(request, context, readOptions(context.options), lineCache),
  };
}

function readOptions(options: Readonly<Record<string, unknown>>): ContextDedupeOptions {
  return {
    keepRecentTurns: numberOption(options, 'keepRecentTurns'),
    nearDupe: booleanOption(options, 'nearDupe'),
    nearMinChars: numberOption(options, 'nearMinChars'),
    nearSimilarity: numberOption(options, 'nearSimilarity'),
    maxAnchors: numberOption(options, 'maxAnchors'),
    maxDeltaLines: numberOption(options, 'maxDeltaLines'),
    minSavedTokens: numberOption(options, 'minSavedTokens'),
  };
}

interface Reference {
  readonly segment: ToolOutputSegment;
  /** Its lines, split when a near-duplicate comparison first needs them (most history never is compared). */
  lines(): readonly string[];
}

function referenceOf(segment: ToolOutputSegment, lineCache: LineCache): Reference {
  return { segment, lines: () => lineCache.linesOf(segment.text) };
}

/**
 * The lines of outputs compared on earlier turns: the history is re-sent every turn and a new
 * candidate is compared with the same earlier outputs, so each is split once per session, not
 * once per turn. Bounded by what it holds (least recently used out first).
 */
class LineCache {
  private readonly lines = new BoundedMemo<readonly string[]>(LINE_CACHE_BYTES, (lines) => lines.length * 40);

  linesOf(text: string): readonly string[] {
    return this.lines.getOrCompute(text, (key) => key.split('\n'));
  }
}

/** What the line cache may hold: the texts (two bytes a character) and a line's bookkeeping. */
const LINE_CACHE_BYTES = 32 * 1024 * 1024;

function dedupe(request: ChatRequest, context: StrategyContext, options: ContextDedupeOptions, lineCache: LineCache): StrategyResult {
  const editable = new Set(editableSegments(request, context).map((segment) => segment.key));
  const idle = { action: 'nothing-to-do', reason: 'no tool output in the undecided history repeats an earlier one' };
  if (editable.size === 0) return { request, ...idle };
  const isRecent = recentTurnGuard(request, context, options.keepRecentTurns);
  const originals = originalSegmentTexts(context);
  const edits = new SegmentEdits('context_dedupe', context);
  const firstCopy = new Map<string, Reference>();
  const segments = findToolOutputs(request);
  const lineCounts = new Map(segments.map((segment) => [segment, lineCount(segment.text)]));
  // Earlier verbatim outputs by line count, newest first on asking: a candidate is compared with
  // the newest few of comparable length without walking back over every other.
  const references = new RecentInRange<Reference>(lineCounts.values(), options.maxAnchors);
  let exact = 0;
  let near = 0;

  for (const segment of segments) {
    context.deadline.check();
    const verbatim = originals.get(segment.key) === segment.text && !hasMarker(segment.text, context.stash);
    if (editable.has(segment.key) && !isRecent(segment.messageIndex)) {
      const first = firstCopy.get(segment.text);
      if (first && first.segment.messageIndex < segment.messageIndex) {
        if (edits.elide({ segment, summary: `duplicate of the output at message ${first.segment.messageIndex}` }, options.minSavedTokens)) {
          exact++;
          continue;
        }
      } else if (options.nearDupe && segment.text.length >= options.nearMinChars) {
        if (collapseNear(segment, references, edits, options, lineCache, context.deadline)) {
          near++;
          continue;
        }
      }
    }
    if (!verbatim) continue;
    const reference = referenceOf(segment, lineCache);
    if (!firstCopy.has(segment.text)) firstCopy.set(segment.text, reference);
    references.add(lineCounts.get(segment)!, reference);
  }
  return edits.result(
    request,
    { action: 'tool-output-collapsed', reason: `${exact} exact and ${near} near-duplicate tool outputs collapsed to the first copy` },
    idle,
    { exactDuplicates: exact, nearDuplicates: near },
  );
}

function collapseNear(segment: ToolOutputSegment, references: RecentInRange<Reference>, edits: SegmentEdits, options: ContextDedupeOptions, lineCache: LineCache, deadline: Deadline): boolean {
  const lines = lineCache.linesOf(segment.text);
  let best: { reference: Reference; diff: LineDiff; changed: number; similarity: number } | undefined;
  // Only outputs of comparable length can be near-identical: the newest `maxAnchors` of those.
  const { low, high } = comparableLineCounts(lines.length, options.nearSimilarity);
  for (const reference of references.newestWithin(low, high)) {
    deadline.check();
    const referenceLines = reference.lines();
    const longer = Math.max(referenceLines.length, lines.length);
    const diff = diffLines(referenceLines, lines, options.maxDeltaLines);
    if (!diff) continue;
    const similarity = diff.commonLines / longer;
    if (similarity < options.nearSimilarity) continue;
    if (!best || diff.changedLines < best.changed) best = { reference, diff, changed: diff.changedLines, similarity };
  }
  if (!best) return false;
  const { reference, changed, similarity } = best;
  const hunks = best.diff.hunks;
  const percent = Math.floor(similarity * 100);
  const summary =
    changed === 0
      ? `same lines as the output at message ${reference.segment.messageIndex}`
      : `near-duplicate of the output at message ${reference.segment.messageIndex}: ${percent}% identical, ${changed} changed lines below`;
  return edits.elide({ segment, summary, render: (marker) => (changed === 0 ? marker : `${marker}\n${hunks}`) }, options.minSavedTokens);
}

/** Lines of a text as `split('\n')` counts them, without splitting. */
function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/**
 * The line counts r comparable with an output of `lines` lines: min(r, lines) ≥ max(r, lines) ×
 * similarity, worked out with that same floating-point test at both ends so no count near a
 * bound is classed otherwise than the test would.
 */
export function comparableLineCounts(lines: number, similarity: number): { low: number; high: number } {
  const comparable = (count: number): boolean => !(Math.min(count, lines) < Math.max(count, lines) * similarity);
  let low = Math.max(0, Math.ceil(lines * similarity));
  while (low > 0 && comparable(low - 1)) low--;
  while (low < lines && !comparable(low)) low++;
  // Past 2^53 the test cannot tell counts apart, and no output has that many lines.
  if (!(lines / similarity < Number.MAX_SAFE_INTEGER / 2)) return { low, high: Number.MAX_SAFE_INTEGER };
  let high = Math.max(lines, Math.floor(lines / similarity));
  while (comparable(high + 1)) high++;
  while (high > lines && !comparable(high)) high--;
  return { low, high };
}
