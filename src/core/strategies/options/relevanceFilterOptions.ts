/** The options of relevance_filter: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const RELEVANCE_FILTER_OPTIONS = z.object({
  minLines: z.number().int().min(0).default(60).describe('Outputs with fewer lines than this are left alone (a list of items is judged by its items).'),
  minSavedTokens: z.number().int().min(0).default(200).describe('Smallest saving, in tokens, worth rewriting an output for.'),
  pastedFresh: z.boolean().default(true).describe('Also filter bulk pasted under a question in the current turn\'s user message.'),
  historyOutputs: z.boolean().default(false).describe('Also filter tool outputs in the undecided history against the latest turn (off by measurement: on agent sessions it takes outputs observation_mask would retire whole).'),
  keepFailedOutputs: z.boolean().default(true).describe('Skip outputs flagged as failed (is_error or a non-zero exit code): they stay whole.'),
  keepItemRatio: z.number().min(0).max(1).default(0.2).describe('Share of a pasted list\'s items (0–1) that may be kept by score.'),
  minKeptItems: z.number().int().min(0).default(2).describe('At least this many items of a pasted list are kept, whatever the ratio.'),
  itemScoreFloor: z.number().min(0).max(1).default(0.5).describe('An item needs at least this share of the best item\'s score to be kept.'),
  leadingLines: z.number().int().min(0).default(5).describe('Lines kept from the start of the output, for orientation.'),
  trailingLines: z.number().int().min(0).default(3).describe('Lines kept from the end (summaries and exit lines sit there).'),
  contextLines: z.number().int().min(0).default(1).describe('Lines kept before and after each selected line.'),
  keepRatio: z.number().min(0).max(1).default(0.2).describe('Share of the output\'s lines (0–1) that may be selected by score.'),
  minKeptLines: z.number().int().min(0).default(10).describe('At least this many lines may be selected by score, whatever the ratio.'),
  relativeScoreFloor: z.number().min(0).max(1).default(0.25).describe('How far a line must score from the output\'s median line toward its best line to be selected (0–1; 0.25 = a quarter of the way).'),
  minElidedRun: z.number().int().min(0).default(4).describe('Runs of dropped lines shorter than this are kept instead: a marker would cost as much.'),
}).describe('Bulk pasted under a question keeps the lines or items (chunks, candidates, files, outlined sources) that answer it; history outputs only with `historyOutputs`.');
