/** The options of content_census: type, default, bounds and a one-line description each. */
import { z } from 'zod';

export const CONTENT_CENSUS_OPTIONS = z.object({
  headChars: z.number().int().min(1).default(2000).describe('Characters of each segment\'s head that are classified.'),
});
