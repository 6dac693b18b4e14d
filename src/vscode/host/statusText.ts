/** What the status bar says, from the session totals. */
import type { SessionTotals } from '../decisions/decisionLog';

export function statusText(totals: SessionTotals, enabled: boolean): { text: string; tooltip: string } {
  if (!enabled) return { text: '$(circle-slash) Herald off', tooltip: 'Herald forwards requests untouched. Run "Herald: Toggle Optimizer" to turn it on.' };
  if (totals.requests === 0) return { text: '$(sparkle) Herald', tooltip: 'No request through a Herald model yet. Click to enable the "Herald · …" models under Manage Models, then pick one in the chat.' };
  const premium = totals.premiumRequests > 0 ? `, ${totals.premiumRequests.toLocaleString('en-US')} premium requests (× each model's multiplier)` : '';
  const money = totals.pricedRequests > 0 ? `, $${totals.billedUsd.toFixed(2)} billed (≈ $${totals.unoptimizedUsd.toFixed(2)} without Herald)` : '';
  return {
    text: `$(sparkle) ${compactNumber(totals.tokensSaved)} saved`,
    tooltip: `Herald, recent requests: ${totals.requests} requests, ${totals.tokensBefore.toLocaleString('en-US')} → ${totals.tokensAfter.toLocaleString('en-US')} tokens (${totals.savedPercent}% saved), ${totals.retrievals} originals retrieved${premium}${money}${totals.failures > 0 ? `, ${totals.failures} failed (saved nothing)` : ''}. Click for the decisions.`,
  };
}

/** 1234 → "1.2k", 2500000 → "2.5M". */
export function compactNumber(value: number): string {
  const absolute = Math.abs(value);
  if (absolute >= 1_000_000) return `${(value / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
  if (absolute >= 1_000) return `${(value / 1_000).toFixed(1).replace(/\.0$/, '')}k`;
  return String(value);
}
