/** `/explain`: one request's decisions as Markdown a person reads in the chat. */
import type { RequestRecord } from '../../core/flow/requestFlow';
import { percentSaved } from '../decisions/decisionLog';
import { PREMIUM_MULTIPLIER_URL } from '../../core/costs/billing';
import { fullUsage } from '../../core/costs/usage';

export function explainRecord(record: RequestRecord | undefined): string {
  if (!record) return 'No request has gone through a Herald model in this window yet. Pick a "Herald · …" model in the chat model picker and send something.';
  const lines = [
    `**Your last request, to ${record.model}**: ${record.tokensBefore.toLocaleString('en-US')} → ${record.tokensAfter.toLocaleString('en-US')} tokens (${percentSaved(record.tokensBefore, record.tokensAfter)}% saved), optimized in ${Math.round(record.optimizeMs)} ms.`,
  ];
  if (record.status === 'forwarded-original') lines.push(`\nThe optimizer failed (${record.error ?? 'unknown error'}), so the original request was sent.`);
  if (record.status === 'optimizer-off') lines.push('\nThe optimizer is off (Herald: Toggle Optimizer), so the request was sent as it was.');
  if (record.status === 'failed') lines.push(`\nThe model failed, so nothing was saved: ${record.error ?? 'unknown error'}.`);
  if (record.status === 'cancelled') lines.push('\nThe request was stopped before the answer was complete; nothing counts as saved.');
  if (record.billing === 'premium-requests') lines.push(`\nIt cost **${record.premiumRequests ?? 0} premium request${record.premiumRequests === 1 ? '' : 's'}** × the model's multiplier (${record.rounds ?? 1} request${record.rounds === 1 ? '' : 's'} to a Copilot-hosted model; [multipliers](${PREMIUM_MULTIPLIER_URL})).`);
  if (record.usage) {
    const usage = fullUsage(record.usage);
    lines.push(`\nThe provider billed ${usage.inputTokens.toLocaleString('en-US')} input, ${usage.cacheReadTokens.toLocaleString('en-US')} cached, ${usage.cacheWriteTokens.toLocaleString('en-US')} cache-write and ${usage.outputTokens.toLocaleString('en-US')} output tokens${record.cost ? `: $${record.cost.billedUsd.toFixed(4)} at the \`${record.cost.priceKey}\` prices, against Herald's estimate of $${record.cost.unoptimizedUsd.toFixed(4)} without the optimizer` : ''}.`);
  }
  if (record.decisions.length > 0) {
    lines.push('', '| strategy | result | tokens | why |', '|---|---|---|---|');
    for (const decision of record.decisions) {
      const tokens = decision.tokensBefore === decision.tokensAfter ? '—' : `${decision.tokensBefore - decision.tokensAfter > 0 ? '−' : '+'}${Math.abs(decision.tokensBefore - decision.tokensAfter)}`;
      lines.push(`| ${decision.strategy} | ${decision.action} | ${tokens} | ${decision.reason.replace(/\|/g, '\\|')} |`);
    }
  }
  if (record.handles.length > 0) lines.push('', `Elided originals can be opened with **Herald: Retrieve Elided Content**: ${record.handles.map((handle) => `\`${handle}\``).join(', ')}.`);
  if (record.retrievals > 0) lines.push('', `The model asked for ${record.retrievals} original${record.retrievals === 1 ? '' : 's'} during the turn, and Herald answered.`);
  return lines.join('\n');
}
