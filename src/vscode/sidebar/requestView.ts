/** A request record as the Decisions view receives it: metadata only, figures worked out once here. Pure. */
import type { RequestRecord } from '../../core/flow/requestFlow';
import { fullUsage } from '../../core/costs/usage';
import { savedPercentOf, savedTokensOf } from '../decisions/decisionLog';
import type { RequestView } from '../../webview/protocol';

export function requestView(record: RequestRecord): RequestView {
  return {
    id: record.id,
    startedAt: record.startedAt,
    model: record.model,
    status: record.status,
    origin: record.origin ?? 'caller',
    tokensBefore: record.tokensBefore,
    tokensAfter: record.tokensAfter,
    savedTokens: savedTokensOf(record),
    savedPercent: savedPercentOf(record),
    rounds: record.rounds ?? 1,
    billing: record.billing ?? 'unknown',
    premiumRequests: record.premiumRequests ?? 0,
    ...(record.usage ? { usage: fullUsage(record.usage) } : {}),
    ...(record.cost
      ? { cost: { priceKey: record.cost.priceKey, billedUsd: record.cost.billedUsd, unoptimizedUsd: record.cost.unoptimizedUsd, ...(record.cost.withoutHerald ? { withoutHerald: fullUsage(record.cost.withoutHerald) } : {}) } }
      : {}),
    optimizeMs: record.optimizeMs,
    totalMs: record.totalMs,
    retrievals: record.retrievals,
    replayedMessages: record.replayedMessages,
    contextQuality: record.contextQuality,
    error: record.error,
    promptPreview: record.promptPreview,
    decisions: record.decisions.map((decision) => ({
      strategy: decision.strategy,
      status: decision.status,
      action: decision.action,
      reason: decision.reason,
      tokensBefore: decision.tokensBefore,
      tokensAfter: decision.tokensAfter,
      durationMs: decision.durationMs,
      handles: [...decision.handles],
    })),
  };
}
