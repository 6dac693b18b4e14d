/**
 * observation_mask: an old, large tool result the conversation has moved past becomes a
 * one-line marker, so it stops being billed on every later turn.
 *
 * Decide-once makes "old" a question of content, not age: a result is decided when it first
 * becomes history, when the model has read it in full as fresh input and answered it. It is
 * masked when that answer (and whatever follows it in the request) shows the conversation
 * moved past it: nothing the output introduced (an identifier, path or number that appeared
 * nowhere before it) is taken up again. Failures (`is_error`, a non-zero exit, a failure
 * line), anything already behind a marker and the current turn stay. On a cold start the
 * last `keepRecentTurns` turns stay too (see `shared/turns.ts`). When the request carries
 * Anthropic's own clearing of old tool results (provider_context_trim), this strategy defers.
 */
import { findToolOutputs, type ToolOutputSegment } from '../chat/toolOutput';
import { messageText, type ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { countLines } from '../stash/marker';
import type { StrategyEnvironment } from './environment';
import { isFailureOutput } from './shared/failure';
import { numberOption } from './shared/options';
import { SegmentEdits } from './shared/segmentEdits';
import { editableSegments } from './shared/segmentSelection';
import { recentTurnGuard } from './shared/turns';
import { hasProviderClearing } from './shared/providerClearing';
import { termsIn } from './shared/terms';

/** Options of observation_mask. */
export interface ObservationMaskOptions {
  /** On a cold start, history within this many turns of the end is kept verbatim. */
  readonly keepRecentTurns: number;
  /** Smallest result, in characters, worth masking. */
  readonly minChars: number;
  /**
   * Largest share (0–1) of the output's new terms the later messages may take up for it to
   * still count as moved past: a reply that quotes one name out of a long listing has taken
   * what it needed; one that works through the output has not.
   */
  readonly maxReusedShare: number;
}

export const OBSERVATION_MASK_DEFAULTS: ObservationMaskOptions = {
  keepRecentTurns: 3,
  minChars: 600,
  maxReusedShare: 0.05,
};

export function createObservationMask(_environment: StrategyEnvironment = {}): Strategy {
  return {
    id: 'observation_mask',
    defaultEnabled: true,
    kind: 'transform',
    defaults: { ...OBSERVATION_MASK_DEFAULTS },
    apply: (request, context) => mask(request, context, readOptions(context.options)),
  };
}

function readOptions(options: Readonly<Record<string, unknown>>): ObservationMaskOptions {
  return {
    keepRecentTurns: numberOption(options, 'keepRecentTurns'),
    minChars: numberOption(options, 'minChars'),
    maxReusedShare: numberOption(options, 'maxReusedShare'),
  };
}

function mask(request: ChatRequest, context: StrategyContext, options: ObservationMaskOptions): StrategyResult {
  if (hasProviderClearing(request)) {
    return { request, action: 'masking-deferred', reason: 'the request asks the provider to clear old tool results (context_management); masking defers to it' };
  }
  const idle = { action: 'nothing-to-do', reason: 'no large tool result in the undecided history that the conversation has moved past' };
  const isRecent = recentTurnGuard(request, context, options.keepRecentTurns);
  const candidates = editableSegments(request, context).filter(
    (segment) => segment.text.length >= options.minChars && !isRecent(segment.messageIndex) && !isFailureOutput(segment),
  );
  if (candidates.length === 0) return { request, ...idle };
  const texts = request.messages.map((message) => messageText(message));
  const withOutput = new Set(findToolOutputs(request).map((segment) => segment.messageIndex));
  // What the conversation did next is what the assistant (and the user, in their own words) said, not later tool output.
  const replies = request.messages.map((message, index) => (message.role === 'assistant' || (message.role !== 'tool' && !withOutput.has(index)) ? texts[index]! : ''));
  const edits = new SegmentEdits('observation_mask', context);
  let kept = 0;
  for (const segment of candidates) {
    if (!movedPast(segment, texts, replies, options)) {
      kept++;
      continue;
    }
    const summary = `observation masked: ${countLines(segment.text)} lines`;
    edits.elide({ segment, summary });
  }
  return edits.result(
    request,
    { action: 'observation-masked', reason: `${edits.count} tool results the conversation moved past were masked; ${kept} still in use were kept` },
    idle,
    { keptInUse: kept },
  );
}

/**
 * True when the conversation moved past the output: of its new terms (not seen in any earlier
 * message), at most `maxReusedShare` reappear in the replies that follow it.
 */
function movedPast(segment: ToolOutputSegment, texts: readonly string[], replies: readonly string[], options: ObservationMaskOptions): boolean {
  const before = texts.slice(0, segment.messageIndex).map((text) => termsIn(text));
  const introduced = [...termsIn(segment.text)].filter((term) => !before.some((terms) => terms.has(term)));
  if (introduced.length === 0) return true;
  const after = replies.slice(segment.messageIndex + 1).map((text) => termsIn(text));
  let reused = 0;
  for (const term of introduced) if (after.some((terms) => terms.has(term))) reused++;
  return reused <= options.maxReusedShare * introduced.length;
}
