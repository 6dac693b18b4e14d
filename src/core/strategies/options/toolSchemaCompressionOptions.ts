/** The options of tool_schema_compression: type, default, bounds and a one-line description each. */
import { z } from 'zod';

export const TOOL_SCHEMA_COMPRESSION_OPTIONS = z.object({
  parameterDescriptions: z.boolean().default(true).describe('Also shorten the `description` of every node inside the input schema.'),
});
