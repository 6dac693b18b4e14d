/** The options of history_trim: type, default, bounds and a one-line description each. */
import { z } from 'zod';

export const HISTORY_TRIM_OPTIONS = z.object({
  keepLastSentences: z.number().int().min(0).default(2).describe('How many prose sentences right before the action (and at the end of the text) stay verbatim: the agent\'s statement of what it does next and why.'),
  minSavedTokens: z.number().int().min(0).default(24).describe('The least a text must shrink by, in tokens, to be trimmed; smaller savings are not worth a marker and a stash entry.'),
});
