/** The options of output_externalize: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const OUTPUT_EXTERNALIZE_OPTIONS = z.object({
  maxChars: z.number().int().min(0).default(50000).describe('Outputs longer than this many characters are externalized.'),
  headLines: z.number().int().min(0).default(8).describe('Lines of the output\'s start shown after the marker, for orientation.'),
  tailLines: z.number().int().min(0).default(5).describe('Lines of the output\'s end shown (where verdicts and summaries are printed).'),
  previewChars: z.number().int().min(0).default(2000).describe('Most characters the head and the tail may show together.'),
  maxFailureLines: z.number().int().min(0).default(60).describe('Most distinct failure, error and anomaly lines listed (each kind once, with its count).'),
  failureChars: z.number().int().min(0).default(12000).describe('Most characters the failure lines (or a JSON payload\'s anomalous rows) may take.'),
}).describe('What is still over 50,000 characters after the content-aware strategies becomes a handle, its shape, a few lines and every failure line it reports.');
