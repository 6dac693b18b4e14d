/** The options of cache_optimizer: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const CACHE_OPTIMIZER_OPTIONS = z.object({
  sortTools: z.boolean().default(true).describe('Write tools in a stable order (by name).'),
  injectBreakpoints: z.boolean().default(true).describe('Add Anthropic `cache_control` breakpoints.'),
  minPrefixTokens: z.number().int().min(0).default(1024).describe('Requests smaller than this many tokens get no breakpoints (providers cache from about 1,024).'),
}).describe('A stable tool order, and Anthropic cache breakpoints unless the client places its own.');
