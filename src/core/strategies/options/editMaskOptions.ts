/** The options of edit_mask: type, default, bounds and a one-line description each. */
import { z } from 'zod';

export const EDIT_MASK_OPTIONS = z.object({
  minSavedTokens: z.number().int().min(0).default(32).describe('The least a written content must shrink by, in tokens, to be masked.'),
  keepNames: z.boolean().default(true).describe('After the marker, list the names the content mentions that no other message shows.'),
  textCommands: z.boolean().default(true).describe('Also mask here-documents written to files in an assistant\'s text commands (mini-swe-agent\'s bash blocks).'),
});
