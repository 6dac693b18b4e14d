/** What the status bar says, from the session totals. */
import type { SessionTotals } from '../decisions/decisionLog';

export function statusText(totals: SessionTotals, enabled: boolean): { text: string; tooltip: string } {
  if (!enabled) return { text: '$(circle-slash) Herald off', tooltip: 'Herald forwards requests untouched. Run "Herald: Toggle Optimizer" to turn it on.' };
  if (totals.requests === 0) return { text: '$(sparkle) Herald', tooltip: 'No request through a Herald model yet. Pick a "Herald · …" model in the chat model picker.' };
  return {
    text: `$(sparkle) ${compactNumber(totals.tokensSaved)} saved`,
    tooltip: `Herald this session: ${totals.requests} requests, ${totals.tokensBefore.toLocaleString('en-US')} → ${totals.tokensAfter.toLocaleString('en-US')} tokens (${totals.savedPercent}% saved), ${totals.retrievals} originals retrieved. Click for the decisions.`,
  };
}

/** 1234 → "1.2k", 2500000 → "2.5M". */
export function compactNumber(value: number): string {
  const absolute = Math.abs(value);
  if (absolute >= 1_000_000) return `${(value / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
  if (absolute >= 1_000) return `${(value / 1_000).toFixed(1).replace(/\.0$/, '')}k`;
  return String(value);
}
