/** The options of history_trim: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const HISTORY_TRIM_OPTIONS = z.object({
  keepLastSentences: z.number().int().min(0).default(2).describe('How many prose sentences right before the action (and at the end of the text) stay verbatim: the agent\'s statement of what it does next and why.'),
  minSavedTokens: z.number().int().min(0).default(24).describe('The least a text must shrink by, in tokens, to be trimmed; smaller savings are not worth a marker and a stash entry.'),
}).describe('The agent\'s old messages keep every action, conclusion, path and identifier; the exploratory rest is elided.');
