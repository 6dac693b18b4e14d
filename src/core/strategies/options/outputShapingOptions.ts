/** The options of output_shaping: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const OUTPUT_SHAPING_OPTIONS = z.object({
  minAssistantTurns: z.number().int().min(0).default(2).describe('Assistant turns needed before a turn counts as routine.'),
  keepNotesInHistory: z.boolean().default(true).describe('Keep each note on the message it was added to once that message is history (the provider\'s cached copy of it then still matches; about 30 tokens per routine turn, read from cache).'),
}).describe('Adds one constant note asking the model not to restate its context.');
