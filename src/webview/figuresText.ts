/**
 * The figures of a request or a session in words, the same in every place Herald shows them:
 * the Decisions view, the status bar's tooltip, `/explain` and the report's notification. Pure
 * (no DOM, no `vscode`), so the webview bundle and the extension share it and mocha tests it.
 *
 * "Without Herald" is the original request sent once; "with Herald" is every round Herald sent
 * for it (its own tool rounds included), billed as the provider billed it. A turn can cost more
 * with Herald (a retrieval re-sends the request with the original added): the words say so.
 */

/** Usage as the provider counts it (every figure present). */
export interface UsageFigures {
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly outputTokens: number;
}

/** "83.7% saved", "12.5% more", "no change": a share of the original in words. */
export function savingsPhrase(percent: number): string {
  if (percent > 0) return `${percent}% saved`;
  if (percent < 0) return `${-percent}% more`;
  return 'no change';
}

/** Whole numbers with thousands separators, as every view writes them. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Dollars with as many places as a small amount needs ($1.23, $0.027, $0.00042). */
export function usd(value: number): string {
  const absolute = Math.abs(value);
  const text = absolute >= 1 ? absolute.toFixed(2) : absolute >= 0.01 ? absolute.toFixed(3) : absolute.toFixed(5);
  return `${value < 0 ? '−' : ''}$${text}`;
}

/** "1,220 input + 40,000 cached + 3,000 cache write + 50 output tokens". */
export function usagePhrase(usage: UsageFigures): string {
  return `${formatCount(usage.inputTokens)} input + ${formatCount(usage.cacheReadTokens)} cached${usage.cacheWriteTokens > 0 ? ` + ${formatCount(usage.cacheWriteTokens)} cache write` : ''} + ${formatCount(usage.outputTokens)} output tokens`;
}

/** What Herald's money came to against the estimate without it: "saved $0.004 (15.2%)" or "cost $0.003 more (12.0%)". */
export function moneyComparison(billedUsd: number, withoutHeraldUsd: number): string {
  const difference = withoutHeraldUsd - billedUsd;
  if (withoutHeraldUsd <= 0 || Math.abs(difference) < 0.000005) return 'about the same';
  const percent = Math.round((Math.abs(difference) / withoutHeraldUsd) * 1000) / 10;
  return difference > 0 ? `saved ${usd(difference)} (${percent}%)` : `cost ${usd(-difference)} more (${percent}%)`;
}

/** "$0.027 billed, ≈ $0.024 without Herald: cost $0.003 more (12.5%)". */
export function moneyLine(billedUsd: number, withoutHeraldUsd: number): string {
  return `${usd(billedUsd)} billed, ≈ ${usd(withoutHeraldUsd)} without Herald: ${moneyComparison(billedUsd, withoutHeraldUsd)}`;
}

/** "24,098 → 30,512 tokens over 2 requests (26.6% more)": the original once against every round sent. */
export function tokensLine(tokensBefore: number, tokensAfter: number, rounds: number, savedPercent: number): string {
  return `${formatCount(tokensBefore)} → ${formatCount(tokensAfter)} tokens${rounds > 1 ? ` over ${rounds} requests` : ''} (${savingsPhrase(savedPercent)})`;
}
