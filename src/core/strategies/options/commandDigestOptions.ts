/** The options of command_digest: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const COMMAND_DIGEST_OPTIONS = z.object({
  minChars: z.number().int().min(0).default(400).describe('Outputs shorter than this many characters are left alone.'),
  minSavedTokens: z.number().int().min(0).default(24).describe('Smallest saving, in tokens, worth a digest.'),
  minSavedRatio: z.number().min(0).max(1).default(0.5).describe('Smallest saving as a share (0–1) of the output\'s tokens: rewriting a message as it becomes history costs one cache write, which a small trim never earns back.'),
  freshMinSavedRatio: z.number().min(0).max(1).default(0.2).describe('The same for fresh tool output, decided on arrival: nothing is cached yet and the digest keeps what the output says, so a smaller saving is worth it.'),
}).describe('Test runs, grep and logs keep their verdict: failures (a failure repeating an earlier one\'s frames folded to one line and its error), counts, hits by file, every log event once with its count; fresh output is digested on arrival, under a question about failures a log keeps its problem events, under a question about where a name is defined grep keeps the definitions.');
