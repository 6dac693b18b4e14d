/** The options of tool_schema_compression: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const TOOL_SCHEMA_COMPRESSION_OPTIONS = z.object({
  parameterDescriptions: z.boolean().default(true).describe('Also shorten the `description` of every node inside the input schema.'),
}).describe('Shortens tool descriptions; types, enums and required fields stay byte for byte.');
