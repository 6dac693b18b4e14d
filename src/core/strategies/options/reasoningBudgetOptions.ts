/** The options of reasoning_budget: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const REASONING_BUDGET_OPTIONS = z.object({
  minAssistantTurns: z.number().int().min(0).default(2).describe('Assistant turns needed before a turn counts as routine.'),
  skipOnErrorTurn: z.boolean().default(true).describe('Keep the client\'s values on a turn whose fresh tool result failed.'),
  anthropicBudgetCap: z.number().int().min(1024).default(8192).describe('Largest Anthropic thinking budget on routine turns (Anthropic\'s minimum is 1024).'),
  anthropicEffort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).default('medium').describe('Highest Anthropic effort on routine turns.'),
  openaiEffort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).default('low').describe('Highest OpenAI reasoning effort on routine turns.'),
  verbosityLevel: z.enum(['low', 'medium', 'high']).default('low').describe('Highest OpenAI verbosity on routine turns.'),
}).describe('Lowers a client-set thinking budget on routine tool-resume turns.');
