/** The options of context_dedupe: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const CONTEXT_DEDUPE_OPTIONS = z.object({
  keepRecentTurns: z.number().int().min(0).default(2).describe('On a cold start, history within this many turns of the end is kept verbatim.'),
  nearDupe: z.boolean().default(true).describe('Collapse near-duplicates to a diff (false: exact duplicates only).'),
  nearMinChars: z.number().int().min(0).default(400).describe('Smallest output, in characters, considered for the near-duplicate path.'),
  nearSimilarity: z.number().min(0).max(1).default(0.8).describe('Share of lines (0–1) a near-duplicate must have in common with the earlier copy.'),
  maxAnchors: z.number().int().min(0).default(8).describe('How many earlier outputs (most recent first) a candidate is compared with.'),
  maxDeltaLines: z.number().int().min(0).default(40).describe('Most changed lines (removed plus added) a near-duplicate\'s diff may show.'),
  minSavedTokens: z.number().int().min(0).default(16).describe('Smallest saving, in tokens, worth a marker.'),
}).describe('A repeated tool output becomes a pointer to the first copy; a near-duplicate becomes a pointer plus a zero-context diff.');
