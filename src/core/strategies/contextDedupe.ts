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
import { diffLines } from './shared/lineDiff';
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
  return {
    id: 'context_dedupe',
    defaultEnabled: true,
    kind: 'transform',
    defaults: { ...CONTEXT_DEDUPE_DEFAULTS },
    optionSchema: CONTEXT_DEDUPE_OPTIONS,
    apply: (request, context) => dedupe(request, context, readOptions(context.options)),
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

function referenceOf(segment: ToolOutputSegment): Reference {
  let lines: readonly string[] | undefined;
  return { segment, lines: () => (lines ??= segment.text.split('\n')) };
}

function dedupe(request: ChatRequest, context: StrategyContext, options: ContextDedupeOptions): StrategyResult {
  const editable = new Set(editableSegments(request, context).map((segment) => segment.key));
  const idle = { action: 'nothing-to-do', reason: 'no tool output in the undecided history repeats an earlier one' };
  if (editable.size === 0) return { request, ...idle };
  const isRecent = recentTurnGuard(request, context, options.keepRecentTurns);
  const originals = originalSegmentTexts(context);
  const edits = new SegmentEdits('context_dedupe', context);
  const firstCopy = new Map<string, Reference>();
  const references: Reference[] = [];
  let exact = 0;
  let near = 0;

  for (const segment of findToolOutputs(request)) {
    const verbatim = originals.get(segment.key) === segment.text && !hasMarker(segment.text, context.stash);
    if (editable.has(segment.key) && !isRecent(segment.messageIndex)) {
      const first = firstCopy.get(segment.text);
      if (first && first.segment.messageIndex < segment.messageIndex) {
        if (edits.elide({ segment, summary: `duplicate of the output at message ${first.segment.messageIndex}` }, options.minSavedTokens)) {
          exact++;
          continue;
        }
      } else if (options.nearDupe && segment.text.length >= options.nearMinChars) {
        if (collapseNear(segment, references, edits, options)) {
          near++;
          continue;
        }
      }
    }
    if (!verbatim) continue;
    const reference = referenceOf(segment);
    if (!firstCopy.has(segment.text)) firstCopy.set(segment.text, reference);
    references.push(reference);
  }
  return edits.result(
    request,
    { action: 'tool-output-collapsed', reason: `${exact} exact and ${near} near-duplicate tool outputs collapsed to the first copy` },
    idle,
    { exactDuplicates: exact, nearDuplicates: near },
  );
}

function collapseNear(segment: ToolOutputSegment, references: readonly Reference[], edits: SegmentEdits, options: ContextDedupeOptions): boolean {
  const lines = segment.text.split('\n');
  let best: { reference: Reference; hunks: string; changed: number; similarity: number } | undefined;
  let compared = 0;
  for (let index = references.length - 1; index >= 0 && compared < options.maxAnchors; index--) {
    const reference = references[index]!;
    // Only outputs of comparable length can be near-identical; skip the rest without counting them.
    const referenceLines = reference.lines();
    const shorter = Math.min(referenceLines.length, lines.length);
    const longer = Math.max(referenceLines.length, lines.length);
    if (shorter < longer * options.nearSimilarity) continue;
    compared++;
    const diff = diffLines(referenceLines, lines, options.maxDeltaLines);
    if (!diff) continue;
    const similarity = diff.commonLines / longer;
    if (similarity < options.nearSimilarity) continue;
    if (!best || diff.changedLines < best.changed) best = { reference, hunks: diff.hunks, changed: diff.changedLines, similarity };
  }
  if (!best) return false;
  const { reference, hunks, changed, similarity } = best;
  const percent = Math.floor(similarity * 100);
  const summary =
    changed === 0
      ? `same lines as the output at message ${reference.segment.messageIndex}`
      : `near-duplicate of the output at message ${reference.segment.messageIndex}: ${percent}% identical, ${changed} changed lines below`;
  return edits.elide({ segment, summary, render: (marker) => (changed === 0 ? marker : `${marker}\n${hunks}`) }, options.minSavedTokens);
}
