/** The options of edit_mask: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const EDIT_MASK_OPTIONS = z.object({
  minSavedTokens: z.number().int().min(0).default(32).describe('The least a written content must shrink by, in tokens, to be masked.'),
  keepNames: z.boolean().default(true).describe('After the marker, list the names the content mentions that no other message shows.'),
  textCommands: z.boolean().default(true).describe('Also mask here-documents written to files in an assistant\'s text commands (mini-swe-agent\'s bash blocks).'),
}).describe('Once a file write is history and its result confirmed it, the content it carried (Copilot `create_file`, `replace_string_in_file`, `apply_patch`…, Claude Code `Write`, `Edit`, `MultiEdit`, here-documents written by shell commands) becomes a marker with the path, line count, first line and the names no other message shows; arguments stay valid JSON with the same keys; a failed or unconfirmed write keeps its content.');
