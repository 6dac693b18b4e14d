/**
 * reasoning_budget (off by default): on routine tool-resume turns (the fresh input is only
 * tool results, no new question), lowers a reasoning setting the client sent to a cap. It
 * never adds, removes or raises one. Lanes:
 *
 * - Anthropic `thinking.budget_tokens` above `anthropicBudgetCap` → the cap.
 * - Anthropic `output_config.effort` above `anthropicEffort` → that effort.
 * - OpenAI `reasoning_effort` (or `reasoning.effort`) above `openaiEffort` → that effort.
 * - OpenAI `verbosity` (or `text.verbosity`) above `verbosityLevel` → that level.
 *
 * The values are pinned per session (first qualifying turn) so every later turn writes the
 * same ones. The thinking budget is part of what Anthropic's message cache is keyed on, so
 * once pinned it is replayed on every turn, routine or not; effort and verbosity are sampling
 * parameters outside the cached prompt and follow the routine-turn gate. A turn whose fresh
 * tool result failed keeps the client's own values (when `skipOnErrorTurn`). A model switch
 * drops the pin.
 */
import type { z } from 'zod';
import type { ChatRequest, Extra } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { classifyTurn } from './shared/routineTurn';
import { booleanOption, numberOption, stringOption } from './shared/optionReads';
import { optionDefaults } from '../pipeline/optionSchema';
import { REASONING_BUDGET_OPTIONS } from './options/reasoningBudgetOptions';

export const REASONING_BUDGET_ID = 'reasoning_budget';

const ANTHROPIC_EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
const OPENAI_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
const VERBOSITY = ['low', 'medium', 'high'] as const;

/** Options of reasoning_budget, as its schema in `options/` declares them (type, default, bounds, description). */
export type ReasoningBudgetOptions = Readonly<z.output<typeof REASONING_BUDGET_OPTIONS>>;

export const REASONING_BUDGET_DEFAULTS: ReasoningBudgetOptions = optionDefaults(REASONING_BUDGET_OPTIONS);

/** The values one session writes on its routine turns. */
export interface ReasoningPin {
  readonly model: string;
  readonly budget: number;
  readonly anthropicEffort: string;
  readonly openaiEffort: string;
  readonly verbosity: string;
}

const PIN_KEY = 'pin';

export function createReasoningBudget(): Strategy {
  return {
    id: REASONING_BUDGET_ID,
    defaultEnabled: false,
    kind: 'transform',
    defaults: REASONING_BUDGET_DEFAULTS,
    optionSchema: REASONING_BUDGET_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const option = context.options;
      const minTurns = numberOption(option, REASONING_BUDGET_ID, 'minAssistantTurns', 0);
      const skipOnError = booleanOption(option, REASONING_BUDGET_ID, 'skipOnErrorTurn');
      const configured: Omit<ReasoningPin, 'model'> = {
        budget: numberOption(option, REASONING_BUDGET_ID, 'anthropicBudgetCap', 1024),
        anthropicEffort: stringOption(option, REASONING_BUDGET_ID, 'anthropicEffort', ANTHROPIC_EFFORTS),
        openaiEffort: stringOption(option, REASONING_BUDGET_ID, 'openaiEffort', OPENAI_EFFORTS),
        verbosity: stringOption(option, REASONING_BUDGET_ID, 'verbosityLevel', VERBOSITY),
      };
      const model = request.model ?? '';
      let pin = context.state.get<ReasoningPin>(PIN_KEY);
      if (pin && pin.model !== model) {
        context.state.delete(PIN_KEY);
        pin = undefined;
      }
      const turn = classifyTurn(request, context.freshStart, minTurns);
      if (turn.failed && skipOnError) return { request, action: 'reasoning-kept', reason: 'a fresh tool result failed: the client keeps its own reasoning settings', details: { errorTurn: true } };
      if (!pin && !turn.routine) return { request, action: 'reasoning-kept', reason: `not a routine tool-resume turn (${turn.reason})` };
      if (!pin) {
        pin = { model, ...configured };
        context.state.set(PIN_KEY, pin);
      }
      const options: Extra = { ...request.options };
      const lowered: string[] = [];
      const budget = lowerBudget(options.thinking, pin.budget);
      if (budget) {
        options.thinking = budget;
        lowered.push('thinking budget');
      }
      if (turn.routine) {
        const effort = lowerNested(options.output_config, 'effort', pin.anthropicEffort, ANTHROPIC_EFFORTS);
        if (effort) {
          options.output_config = effort;
          lowered.push('effort');
        }
        if (request.format !== 'anthropic') {
          const flat = lowerLevel(options.reasoning_effort, pin.openaiEffort, OPENAI_EFFORTS);
          if (flat) options.reasoning_effort = flat;
          const nested = lowerNested(options.reasoning, 'effort', pin.openaiEffort, OPENAI_EFFORTS);
          if (nested) options.reasoning = nested;
          if (flat || nested) lowered.push('reasoning effort');
          const verbosity = lowerLevel(options.verbosity, pin.verbosity, VERBOSITY);
          if (verbosity) options.verbosity = verbosity;
          const textVerbosity = lowerNested(options.text, 'verbosity', pin.verbosity, VERBOSITY);
          if (textVerbosity) options.text = textVerbosity;
          if (verbosity || textVerbosity) lowered.push('verbosity');
        }
      }
      const details = { routine: turn.routine, pinned: true, lanes: lowered.length };
      if (lowered.length === 0) return { request, action: 'reasoning-kept', reason: 'no client-set reasoning value above the cap', details };
      return {
        request: { ...request, options },
        action: 'reasoning-lowered',
        reason: `lowered ${lowered.join(', ')} on a ${turn.routine ? 'routine tool-resume turn' : 'later turn of a pinned session'}; no saving is claimed`,
        details,
      };
    },
  };
}

function lowerBudget(thinking: unknown, cap: number): Extra | undefined {
  if (typeof thinking !== 'object' || thinking === null) return undefined;
  const value = thinking as Extra;
  if (typeof value.budget_tokens !== 'number' || value.budget_tokens <= cap) return undefined;
  return { ...value, budget_tokens: cap };
}

/** The target when `value` is a known level above it; undefined otherwise (unknown values are left alone). */
function lowerLevel(value: unknown, target: string, ladder: readonly string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const current = ladder.indexOf(value);
  const wanted = ladder.indexOf(target);
  return current >= 0 && wanted >= 0 && current > wanted ? target : undefined;
}

function lowerNested(container: unknown, field: string, target: string, ladder: readonly string[]): Extra | undefined {
  if (typeof container !== 'object' || container === null) return undefined;
  const value = container as Extra;
  const lowered = lowerLevel(value[field], target, ladder);
  return lowered === undefined ? undefined : { ...value, [field]: lowered };
}
