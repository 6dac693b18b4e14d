/**
 * param_tuning: caps an over-large completion ceiling. A guardrail against runaway answers,
 * not a saving: providers bill the tokens generated, not the ceiling, so it claims none.
 */
import type { z } from 'zod';
import type { ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { numberOption } from './shared/optionReads';
import { optionDefaults } from '../pipeline/optionSchema';
import { PARAM_TUNING_OPTIONS } from './options/paramTuningOptions';

export const PARAM_TUNING_ID = 'param_tuning';

/** Options of param_tuning, as its schema in `options/` declares them (type, default, bounds, description). */
export type ParamTuningOptions = Readonly<z.output<typeof PARAM_TUNING_OPTIONS>>;

export const PARAM_TUNING_DEFAULTS: ParamTuningOptions = optionDefaults(PARAM_TUNING_OPTIONS);

/** The option names that set a completion ceiling, in the spelling of each format. */
const CEILING_FIELDS = ['max_tokens', 'max_completion_tokens', 'max_output_tokens'] as const;

export function createParamTuning(): Strategy {
  return {
    id: PARAM_TUNING_ID,
    defaultEnabled: true,
    kind: 'transform',
    defaults: PARAM_TUNING_DEFAULTS,
    optionSchema: PARAM_TUNING_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const cap = numberOption(context.options, PARAM_TUNING_ID, 'maxTokensCap', 1);
      const options = { ...request.options };
      let largest = 0;
      let capped = 0;
      for (const field of CEILING_FIELDS) {
        const value = options[field];
        if (typeof value !== 'number' || value <= cap) continue;
        largest = Math.max(largest, value);
        options[field] = cap;
        capped++;
      }
      if (capped === 0) return { request, action: 'ceiling-kept', reason: `no completion ceiling above ${cap}` };
      // Anthropic refuses a request whose thinking budget is not below max_tokens: leave such a request alone.
      const budget = thinkingBudget(request.options.thinking);
      if (budget !== undefined && budget >= cap) {
        return { request, action: 'ceiling-kept', reason: `the thinking budget (${budget}) needs a ceiling above the cap`, details: { thinkingBudget: budget } };
      }
      return {
        request: { ...request, options },
        action: 'ceiling-capped',
        reason: `completion ceiling ${largest} lowered to ${cap}; billed tokens are unchanged, so no saving is claimed`,
        details: { ceilingBefore: largest, ceilingAfter: cap, fields: capped },
      };
    },
  };
}

function thinkingBudget(thinking: unknown): number | undefined {
  if (typeof thinking !== 'object' || thinking === null) return undefined;
  const budget = (thinking as Record<string, unknown>).budget_tokens;
  return typeof budget === 'number' ? budget : undefined;
}
