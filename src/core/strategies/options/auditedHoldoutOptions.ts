/** The options of audited_holdout: type, default, bounds and a one-line description each. */
import { z } from 'zod';

export const AUDITED_HOLDOUT_OPTIONS = z.object({
  share: z.number().min(0).max(1).default(0.05).describe('Share of sessions held out as the control group, 0 to 1.'),
  salt: z.string().default('').describe('Mixed into the hash, so a new experiment draws a different control group.'),
});
