/** The options of observation_mask: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const OBSERVATION_MASK_OPTIONS = z.object({
  keepRecentTurns: z.number().int().min(0).default(3).describe('On a cold start, history within this many turns of the end is kept verbatim.'),
  minChars: z.number().int().min(0).default(600).describe('Smallest result, in characters, worth masking.'),
  maxReusedShare: z.number().min(0).max(1).default(0.05).describe('Largest share (0–1) of the output\'s new terms the later messages may take up for it to still count as moved past: a reply that quotes one name out of a long listing has taken what it needed; one that works through the output has not.'),
  trimInUse: z.boolean().default(true).describe('Trim a result the reply used only in part to the lines it used (false: keep it whole).'),
  contextLines: z.number().int().min(0).default(2).describe('Lines of context kept around each used line when trimming.'),
}).describe('An output the following replies did not build on is masked; one they used in part is trimmed to the lines they used.');
