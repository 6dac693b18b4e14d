/** What the status bar says, from the session totals (the same figures as the Decisions view). */
import type { SessionTotals } from '../decisions/decisionLog';
import { formatCount, moneyLine, savingsPhrase } from '../../webview/figuresText';

export function statusText(totals: SessionTotals, enabled: boolean): { text: string; tooltip: string } {
  if (!enabled) return { text: '$(circle-slash) Herald off', tooltip: 'Herald forwards requests untouched. Run "Herald: Toggle Optimizer" to turn it on.' };
  if (totals.requests === 0 && (totals.ownCalls ?? 0) === 0) return { text: '$(sparkle) Herald', tooltip: 'No request through a Herald model yet. Click to enable the "Herald · …" models under Manage Models, then pick one in the chat.' };
  const own = (totals.ownCalls ?? 0) > 0 ? ` and ${totals.ownCalls} of Herald's own calls (cost only)` : '';
  const premium = totals.premiumRequests > 0 ? `, ${formatCount(totals.premiumRequests)} premium requests (× each model's multiplier)` : '';
  const money = totals.pricedRequests > 0 ? `, ${moneyLine(totals.billedUsd, totals.unoptimizedUsd)}` : '';
  const saved = totals.tokensSaved < 0 ? `${compactNumber(-totals.tokensSaved)} more` : `${compactNumber(totals.tokensSaved)} saved`;
  return {
    text: `$(sparkle) ${saved}`,
    tooltip: `Herald, recent requests: ${totals.requests} requests${own}, ${formatCount(totals.tokensBefore)} → ${formatCount(totals.tokensAfter)} tokens sent over every round (${savingsPhrase(totals.savedPercent)}), ${totals.retrievals} originals retrieved${premium}${money}${totals.failures > 0 ? `, ${totals.failures} failed (saved nothing)` : ''}. Click for the decisions.`,
  };
}

/** 1234 → "1.2k", 2500000 → "2.5M". */
export function compactNumber(value: number): string {
  const absolute = Math.abs(value);
  if (absolute >= 1_000_000) return `${(value / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
  if (absolute >= 1_000) return `${(value / 1_000).toFixed(1).replace(/\.0$/, '')}k`;
  return String(value);
}
