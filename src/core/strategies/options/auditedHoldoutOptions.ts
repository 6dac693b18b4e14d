/** The options of audited_holdout: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const AUDITED_HOLDOUT_OPTIONS = z.object({
  share: z.number().min(0).max(1).default(0.05).describe('Share of sessions held out as the control group, 0 to 1.'),
  salt: z.string().default('').describe('Mixed into the hash, so a new experiment draws a different control group.'),
}).describe('A read-only signal: a configured share of sessions skips every mutating strategy, as a control sample to measure against.');
