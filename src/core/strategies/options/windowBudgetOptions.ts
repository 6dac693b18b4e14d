/** The options of window_budget: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const WINDOW_BUDGET_OPTIONS = z.object({
  maxTokens: z.number().int().min(0).default(0).describe('The budget in tokens; 0 means `windowShare` of the model\'s window.'),
  windowShare: z.number().min(0).max(1).default(0.95).describe('Share (0–1) of the model\'s reported window used as the budget.'),
  cropTarget: z.number().min(0).max(1).default(0.6).describe('Share (0–1) of the budget a crop event goes down to, so later turns fit without cropping again.'),
  keepLeading: z.number().int().min(0).default(2).describe('Leading messages never cropped (system prompt and task).'),
  keepRecent: z.number().int().min(0).default(6).describe('Trailing messages never cropped.'),
  relevanceWeight: z.number().min(0).max(1).default(0.6).describe('Weight (0–1) of relevance against recency when ranking units; 0 crops oldest first.'),
  minUnitTokens: z.number().int().min(0).default(50).describe('Units whose croppable text is smaller than this many tokens are not worth a marker.'),
}).describe('When a request is over a known budget, crops the least relevant middle of the history, a call and its result together.');
