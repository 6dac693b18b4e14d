/**
 * context_quality (signal): a 0–100 health score of the conversation, from how full the
 * window is, how many messages there are, and how much of the tool output is bloated (one
 * output over a size limit) or duplicated (the same output seen before). The score and its
 * parts ride in the decision's details; no text.
 */
import type { z } from 'zod';
import { findToolOutputs } from '../chat/toolOutput';
import type { ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { numberOption } from './shared/optionReads';
import { optionDefaults } from '../pipeline/optionSchema';
import { CONTEXT_QUALITY_OPTIONS } from './options/contextQualityOptions';
import { checkDeadline } from '../pipeline/deadline';

export const CONTEXT_QUALITY_ID = 'context_quality';

/** Options of context_quality, as its schema in `options/` declares them (type, default, bounds, description). */
export type ContextQualityOptions = Readonly<z.output<typeof CONTEXT_QUALITY_OPTIONS>>;

export const CONTEXT_QUALITY_DEFAULTS: ContextQualityOptions = optionDefaults(CONTEXT_QUALITY_OPTIONS);

/** Points each factor can take away; they add up to 100. */
const WEIGHTS = { fill: 40, length: 15, bloat: 25, duplicate: 20 } as const;

export function createContextQuality(): Strategy {
  return {
    id: CONTEXT_QUALITY_ID,
    defaultEnabled: true,
    kind: 'signal',
    defaults: CONTEXT_QUALITY_DEFAULTS,
    optionSchema: CONTEXT_QUALITY_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const window = context.windowTokens ?? numberOption(context.options, CONTEXT_QUALITY_ID, 'defaultWindowTokens', 1);
      const bloatTokens = numberOption(context.options, CONTEXT_QUALITY_ID, 'bloatTokens', 1);
      const longMessages = numberOption(context.options, CONTEXT_QUALITY_ID, 'longConversationMessages', 1);
      const figures = measureContext(request, context, window, bloatTokens, longMessages);
      return {
        request,
        action: 'context-scored',
        reason: `context health ${figures.score}/100`,
        details: figures,
      };
    },
  };
}

export interface ContextFigures extends Record<string, number> {
  readonly score: number;
  readonly fill: number;
  readonly messages: number;
  readonly toolOutputs: number;
  readonly toolOutputTokens: number;
  readonly bloatedOutputs: number;
  readonly duplicateOutputs: number;
}

export function measureContext(request: ChatRequest, context: Pick<StrategyContext, 'tokens'>, window: number, bloatTokens: number, longMessages: number): ContextFigures {
  const total = context.tokens.countRequest(request);
  const fill = total / window;
  const seen = new Set<string>();
  let outputTokens = 0;
  let bloatedTokens = 0;
  let duplicateTokens = 0;
  let bloated = 0;
  let duplicates = 0;
  const segments = findToolOutputs(request);
  for (const segment of segments) {
    checkDeadline();
    const tokens = context.tokens.count(segment.text);
    outputTokens += tokens;
    if (tokens > bloatTokens) {
      bloated++;
      bloatedTokens += tokens;
    }
    // The texts themselves: hashing every output with SHA-256 each turn cost more than the whole rest of this signal.
    const text = segment.text.trim();
    if (seen.has(text)) {
      duplicates++;
      duplicateTokens += tokens;
    } else {
      seen.add(text);
    }
  }
  // A window up to half full costs nothing; from there to full costs the whole fill weight.
  const fillPenalty = WEIGHTS.fill * clamp((fill - 0.5) / 0.5);
  // Length costs from the threshold on, fully at eight times it.
  const lengthPenalty = WEIGHTS.length * clamp((request.messages.length - longMessages) / (7 * longMessages));
  const bloatPenalty = outputTokens === 0 ? 0 : WEIGHTS.bloat * (bloatedTokens / outputTokens);
  const duplicatePenalty = outputTokens === 0 ? 0 : WEIGHTS.duplicate * (duplicateTokens / outputTokens);
  const score = Math.round(clamp((100 - fillPenalty - lengthPenalty - bloatPenalty - duplicatePenalty) / 100) * 100);
  return {
    score,
    fill: Math.round(fill * 1000) / 1000,
    messages: request.messages.length,
    toolOutputs: segments.length,
    toolOutputTokens: outputTokens,
    bloatedOutputs: bloated,
    duplicateOutputs: duplicates,
  };
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}
