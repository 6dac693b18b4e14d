/**
 * Herald's own model calls made straight to a Copilot-hosted model (not through a Herald model,
 * whose provider records them itself): each is a premium request, so each gets a record in the
 * Decisions view and the report, marked as Herald's. Pure.
 */
import type { RequestRecord } from '../../core/flow/requestFlow';
import { billingOfVendor } from '../../core/costs/billing';

/** The record of one own call, or undefined when nothing about it is billed in a unit Herald can count. */
export function ownCallRecord(call: { vendor: string; name: string; family: string; purpose: string; tokens: number; failed: boolean }, id: string, now: number): RequestRecord | undefined {
  if (call.vendor === 'herald' || billingOfVendor(call.vendor) !== 'premium-requests') return undefined;
  return {
    id,
    startedAt: now,
    model: `${call.name} · ${call.purpose}`,
    family: call.family,
    status: call.failed ? 'failed' : 'optimizer-off',
    tokensBefore: call.tokens,
    tokensAfter: call.tokens,
    optimizeMs: 0,
    totalMs: 0,
    decisions: [],
    handles: [],
    retrievals: 0,
    rounds: 1,
    billing: 'premium-requests',
    premiumRequests: 1,
    origin: 'herald',
    replayedMessages: 0,
  };
}
