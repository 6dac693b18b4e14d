/** The options of context_quality: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const CONTEXT_QUALITY_OPTIONS = z.object({
  defaultWindowTokens: z.number().int().min(1).default(128000).describe('The window assumed when the host does not say (tokens).'),
  bloatTokens: z.number().int().min(1).default(4000).describe('A tool output above this many tokens counts as bloated.'),
  longConversationMessages: z.number().int().min(1).default(40).describe('From this many messages on, length starts to cost points.'),
}).describe('A read-only signal: a 0–100 score from window fill, message count, bloated and duplicate output.');
