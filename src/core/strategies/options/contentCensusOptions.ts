/** The options of content_census: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const CONTENT_CENSUS_OPTIONS = z.object({
  headChars: z.number().int().min(1).default(2000).describe('Characters of each segment\'s head that are classified.'),
}).describe('A read-only signal: counts tool-output segments by shape class (no content, names or keys recorded).');
