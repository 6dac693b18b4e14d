/** The options of prompt_compression: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const PROMPT_COMPRESSION_OPTIONS = z.object({
  minChars: z.number().int().min(0).default(400).describe('Texts with fewer characters of prose than this are left alone.'),
  minSavedTokens: z.number().int().min(0).default(16).describe('Smallest saving, in tokens (after paying for the marker), worth a rewrite.'),
  userMinSavedShare: z.number().min(0).max(1).default(0.1).describe('Smallest saving, as a share (0–1) of the text\'s tokens, worth rewriting a user\'s message: their own words are theirs, and a marker on them for a sliver of space is not worth it.'),
}).describe('System and user prose: whitespace and repeated sentences and blocks; code, logs, tables and aligned columns untouched.');
