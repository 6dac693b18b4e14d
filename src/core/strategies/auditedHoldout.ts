/**
 * audited_holdout (signal, off by default): puts a configured share of sessions in a control
 * group. A control request skips every mutating strategy after this one (the runner sees
 * `holdout: true`), so savings can be measured against real, unoptimized traffic instead of
 * estimated. Assignment is per session, from a hash of the session's opening, and pinned, so
 * a session is control or treated on every turn; it is deterministic and needs no randomness.
 */
import type { z } from 'zod';
import type { ChatRequest } from '../chat/types';
import { sha256 } from '../pipeline/hash';
import { sessionIdOf } from '../pipeline/pipeline';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { numberOption, stringOption } from './shared/optionReads';
import { optionDefaults } from '../pipeline/optionSchema';
import { AUDITED_HOLDOUT_OPTIONS } from './options/auditedHoldoutOptions';

export const AUDITED_HOLDOUT_ID = 'audited_holdout';

/** Options of audited_holdout, as its schema in `options/` declares them (type, default, bounds, description). */
export type AuditedHoldoutOptions = Readonly<z.output<typeof AUDITED_HOLDOUT_OPTIONS>>;

export const AUDITED_HOLDOUT_DEFAULTS: AuditedHoldoutOptions = optionDefaults(AUDITED_HOLDOUT_OPTIONS);

/** Buckets the hash is cut into; the share is matched to within one bucket (0.01 %). */
const BUCKETS = 10_000;

interface HoldoutAssignment {
  readonly bucket: number;
  readonly salt: string;
}

export function createAuditedHoldout(): Strategy {
  return {
    id: AUDITED_HOLDOUT_ID,
    defaultEnabled: false,
    kind: 'signal',
    defaults: AUDITED_HOLDOUT_DEFAULTS,
    optionSchema: AUDITED_HOLDOUT_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const share = numberOption(context.options, AUDITED_HOLDOUT_ID, 'share', 0);
      const salt = stringOption(context.options, AUDITED_HOLDOUT_ID, 'salt');
      if (share > 1) throw new Error(`Herald: option "share" of ${AUDITED_HOLDOUT_ID} must be between 0 and 1, got ${share}`);
      let assignment = context.state.get<HoldoutAssignment>('assignment');
      if (!assignment || assignment.salt !== salt) {
        assignment = { bucket: holdoutBucket(sessionIdOf(context.original), salt), salt };
        context.state.set('assignment', assignment);
      }
      const holdout = assignment.bucket < Math.round(share * BUCKETS);
      return {
        request,
        holdout,
        action: holdout ? 'request-held-out' : 'request-treated',
        reason: holdout ? `control group (${(share * 100).toFixed(2)} % of sessions): no mutating strategy runs` : 'treated group',
        details: { holdout, share, bucket: assignment.bucket },
      };
    },
  };
}

/** The bucket (0 to 9,999) a session falls in for a salt. */
export function holdoutBucket(sessionId: string, salt: string): number {
  return Number.parseInt(sha256(`${salt}\u0000${sessionId}`).slice(0, 8), 16) % BUCKETS;
}
