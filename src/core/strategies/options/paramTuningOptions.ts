/** The options of param_tuning: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const PARAM_TUNING_OPTIONS = z.object({
  maxTokensCap: z.number().int().min(1).default(65536).describe('Largest completion ceiling let through; larger `max_tokens` / `max_completion_tokens` are lowered to it.'),
}).describe('Caps an over-large `max_tokens`; claims no saving.');
