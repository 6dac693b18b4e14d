/**
 * observation_mask: an old, large tool result the conversation has moved past becomes a
 * one-line marker, so it stops being billed on every later turn.
 *
 * Decide-once makes "old" a question of content, not age: a result is decided when it first
 * becomes history, when the model has read it in full as fresh input and answered it. It is
 * masked when that answer (and whatever follows it in the request) shows the conversation
 * moved past it: nothing the output introduced (an identifier, path or number that appeared
 * nowhere before it) is taken up again, or only a sliver of it is. A result the reply did
 * work through, but only in part, is trimmed to the lines that carry what the reply took up
 * (with a little context); the rest is masked behind the same kind of marker. Failures
 * (`is_error`, a non-zero exit, a failure line), anything already behind a marker and the
 * current turn stay whole. On a cold start the
 * last `keepRecentTurns` turns stay too (see `shared/turns.ts`). When the request carries
 * Anthropic's own clearing of old tool results (provider_context_trim), this strategy defers.
 */
import type { z } from 'zod';
import { findToolOutputs } from '../chat/toolOutput';
import { messageText, type ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import type { Deadline } from '../pipeline/deadline';
import { countLines } from '../stash/marker';
import type { StrategyEnvironment } from './environment';
import { isFailureOutput } from './shared/failure';
import { booleanOption, numberOption } from './shared/options';
import { SegmentEdits } from './shared/segmentEdits';
import { editableSegments } from './shared/segmentSelection';
import { recentTurnGuard } from './shared/turns';
import { hasProviderClearing } from './shared/providerClearing';
import { termsOfLine } from './shared/terms';
import { termUsage } from './shared/conversationTerms';
import { optionDefaults } from '../pipeline/optionSchema';
import { OBSERVATION_MASK_OPTIONS } from './options/observationMaskOptions';

/** Options of observation_mask, as its schema in `options/` declares them (type, default, bounds, description). */
export type ObservationMaskOptions = Readonly<z.output<typeof OBSERVATION_MASK_OPTIONS>>;

/** The defaults of every observation_mask option, from its schema in options/. */
export const OBSERVATION_MASK_DEFAULTS: ObservationMaskOptions = optionDefaults(OBSERVATION_MASK_OPTIONS);

/** A trim must remove at least this share of a result (stricter than the pipeline's cache-write share: it also hides lines). */
const TRIM_MIN_SAVED_RATIO = 0.5;
/** Results shorter than this many lines are masked whole or kept whole, never trimmed. */
const TRIM_MIN_LINES = 20;

/** Builds the observation_mask strategy; it needs nothing from the host. */
export function createObservationMask(_environment: StrategyEnvironment = {}): Strategy {
  return {
    id: 'observation_mask',
    defaultEnabled: true,
    kind: 'transform',
    defaults: { ...OBSERVATION_MASK_DEFAULTS },
    optionSchema: OBSERVATION_MASK_OPTIONS,
    apply: (request, context) => mask(request, context, readOptions(context.options)),
  };
}

function readOptions(options: Readonly<Record<string, unknown>>): ObservationMaskOptions {
  return {
    keepRecentTurns: numberOption(options, 'keepRecentTurns'),
    minChars: numberOption(options, 'minChars'),
    maxReusedShare: numberOption(options, 'maxReusedShare'),
    trimInUse: booleanOption(options, 'trimInUse'),
    contextLines: numberOption(options, 'contextLines'),
  };
}

function mask(request: ChatRequest, context: StrategyContext, options: ObservationMaskOptions): StrategyResult {
  if (hasProviderClearing(request)) {
    return { request, action: 'masking-deferred', reason: 'the request asks the provider to clear old tool results (context_management); masking defers to it' };
  }
  const idle = { action: 'nothing-to-do', reason: 'no large tool result in the undecided history that the conversation has moved past' };
  const isRecent = recentTurnGuard(request, context, options.keepRecentTurns);
  const candidates = editableSegments(request, context, { includeDigested: true }).filter((segment) => {
    context.deadline.check();
    return segment.text.length >= options.minChars && !isRecent(segment.messageIndex) && !isFailureOutput(segment);
  });
  if (candidates.length === 0) return { request, ...idle };
  const texts = request.messages.map((message) => messageText(message));
  const withOutput = new Set(findToolOutputs(request).map((segment) => segment.messageIndex));
  // What the conversation did next is what the assistant (and the user, in their own words) said, not later tool output.
  const replies = request.messages.map((message, index) => (message.role === 'assistant' || (message.role !== 'tool' && !withOutput.has(index)) ? texts[index]! : ''));
  // Each message's terms are read once for all candidates (see shared/conversationTerms.ts).
  const usages = termUsage(texts, replies, candidates, context.deadline);
  const edits = new SegmentEdits('observation_mask', context);
  let masked = 0;
  let trimmed = 0;
  let kept = 0;
  for (const segment of candidates) {
    context.deadline.check();
    const usage = usages.get(segment)!;
    if (usage.reused.size <= options.maxReusedShare * usage.introduced) {
      edits.elide({ segment, summary: `observation masked: ${countLines(segment.text)} lines` });
      masked++;
      continue;
    }
    // A digest is masked whole or kept: trimming it would carry pieces of one elision into another.
    const trim = options.trimInUse && segment.arrived === undefined ? trimToUsed(segment.text, usage.reused, options.contextLines, context.deadline) : undefined;
    const summary = trim ? `observation trimmed to the ${trim.keptLines} of ${trim.totalLines} lines the reply used` : '';
    if (trim && edits.elide({ segment, summary, render: (marker) => `${marker}\n${trim.text}` }, 1, TRIM_MIN_SAVED_RATIO)) {
      trimmed++;
      continue;
    }
    kept++;
  }
  return edits.result(
    request,
    { action: 'observation-masked', reason: `${masked} tool results the conversation moved past were masked, ${trimmed} used in part were trimmed to the lines used, ${kept} were kept` },
    idle,
    { masked, trimmed, keptInUse: kept },
  );
}

/**
 * The output cut to the lines carrying a used term, with `contextLines` around each, the
 * gaps shown as `… N lines …`; undefined when that keeps most of it anyway.
 */
function trimToUsed(text: string, used: ReadonlySet<string>, contextLines: number, deadline: Deadline): { text: string; keptLines: number; totalLines: number } | undefined {
  const lines = text.split('\n');
  if (lines.length < TRIM_MIN_LINES) return undefined;
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, index) => {
    deadline.check();
    if (![...termsOfLine(line)].some((term) => used.has(term))) return;
    for (let near = Math.max(0, index - contextLines); near <= Math.min(lines.length - 1, index + contextLines); near++) keep[near] = true;
  });
  const keptLines = keep.filter(Boolean).length;
  if (keptLines === 0 || keptLines > lines.length / 2) return undefined;
  const out: string[] = [];
  let gap = 0;
  lines.forEach((line, index) => {
    if (!keep[index]) {
      gap++;
      return;
    }
    if (gap > 0) out.push(`… ${gap} lines …`);
    gap = 0;
    out.push(line);
  });
  if (gap > 0) out.push(`… ${gap} lines …`);
  return { text: out.join('\n'), keptLines, totalLines: lines.length };
}
