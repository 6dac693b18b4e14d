/**
 * The result of a run abandoned at the pipeline's deadline before any strategy ran: the
 * request goes out as it came, and every enabled strategy's decision says why it did not run.
 */
import type { ChatRequest } from '../chat/types';
import type { PipelineResult } from './pipeline';
import type { Decision } from './types';

/** The decision action of a strategy the pipeline's deadline stopped or kept from running. */
export const PIPELINE_DEADLINE_ACTION = 'pipeline-deadline-exceeded';

export function requestAsItCame(input: ChatRequest, strategyIds: readonly string[], limitMs: number, started: number, sessionId: string): PipelineResult {
  // The request was too big to count in time: about four characters a token, said to be an estimate.
  const tokens = roughTokens(input);
  const decisions: Decision[] = strategyIds.map((strategy) => ({
    strategy,
    status: 'skipped',
    action: PIPELINE_DEADLINE_ACTION,
    reason: `the pipeline ran past its ${limitMs} ms deadline before this strategy could run; the request goes out as it came (about ${tokens} tokens, estimated)`,
    tokensBefore: tokens,
    tokensAfter: tokens,
    durationMs: 0,
    handles: [],
  }));
  return {
    request: input,
    decisions,
    tokensBefore: tokens,
    tokensAfter: tokens,
    durationMs: performance.now() - started,
    replayedMessages: 0,
    sessionId,
    holdout: false,
    savedByStrategy: {},
    elisions: [],
    restored: `${PIPELINE_DEADLINE_ACTION}: the pipeline ran past its ${limitMs} ms deadline before any strategy ran`,
  };
}

/** About four characters a token over every text the request carries. */
function roughTokens(request: ChatRequest): number {
  let characters = 0;
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (part.type === 'text') characters += part.text.length;
      else if (part.type === 'tool_result') for (const inner of part.content) characters += inner.type === 'text' ? inner.text.length : 0;
      else if (part.type === 'tool_call') characters += typeof part.arguments === 'string' ? part.arguments.length : 0;
    }
  }
  return Math.ceil(characters / 4);
}
