/** The options of provider_context_trim: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const PROVIDER_CONTEXT_TRIM_OPTIONS = z.object({
  triggerTokens: z.number().int().min(1).default(60000).describe('Estimated input tokens from which the edit is added; also the edit\'s own trigger.'),
  keepToolUses: z.number().int().min(0).default(3).describe('Most recent tool uses Anthropic keeps when it clears.'),
  clearAtLeastTokens: z.number().int().min(0).default(5000).describe('Anthropic clears only when it can clear at least this many tokens (a cache write must pay off).'),
}).describe('Large Anthropic requests ask for provider-side clearing of aged tool results.');
