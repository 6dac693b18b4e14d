/** The options of context_compression: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const CONTEXT_COMPRESSION_OPTIONS = z.object({
  minChars: z.number().int().min(0).default(800).describe('Outputs shorter than this many characters are left alone.'),
  minSavedTokens: z.number().int().min(0).default(32).describe('Smallest saving, in tokens, worth a rewrite.'),
  minSavedRatio: z.number().min(0).max(1).default(0.5).describe('Smallest saving as a share (0–1) of the output\'s tokens: rewriting a message as it becomes history costs one cache write, which a small trim never earns back.'),
  freshMinSavedRatio: z.number().min(0).max(1).default(0.2).describe('The same for fresh tool output, decided on arrival: nothing is cached yet and the digest keeps what the output says, so a smaller saving is worth it.'),
}).describe('Bulky JSON, HTML, diffs, listings and stack traces go through the content cleaners; fresh output is cleaned on arrival.');
