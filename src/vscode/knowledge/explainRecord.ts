/** `/explain`: one request's decisions as Markdown a person reads in the chat. */
import type { RequestRecord } from '../../core/flow/requestFlow';
import { completed, savedPercentOf } from '../decisions/decisionLog';
import { PREMIUM_MULTIPLIER_URL } from '../../core/costs/billing';
import { fullUsage } from '../../core/costs/usage';
import { formatCount, moneyComparison, tokensLine, usagePhrase, usd } from '../../webview/figuresText';
import { sentence } from '../endpoints/endpointErrors';

export function explainRecord(record: RequestRecord | undefined): string {
  if (!record) return 'No request has gone through a Herald model in this window yet. Pick a "Herald · …" model in the chat model picker and send something.';
  const rounds = record.rounds ?? 1;
  const lines = [headline(record, rounds)];
  if (record.status === 'forwarded-original') lines.push(`\nThe optimizer failed (${record.error ?? 'unknown error'}), so the original request was sent.`);
  if (record.status === 'optimizer-off') lines.push('\nThe optimizer is off (Herald: Toggle Optimizer), so the request was sent as it was.');
  if (record.status === 'failed') lines.push(`\nThe model failed: ${sentence(record.error ?? 'unknown error')}`);
  if (record.status === 'served-from-cache') lines.push('\nsemantic_cache answered this exact repeat from memory and the model was not called. Send it again to reach the model, or turn `herald.strategy.semanticCache.enabled` off.');
  if (record.billing === 'premium-requests') lines.push(`\nIt cost **${record.premiumRequests ?? 0} premium request${record.premiumRequests === 1 ? '' : 's'}** × the model's multiplier (${rounds} request${rounds === 1 ? '' : 's'} to a Copilot-hosted model; [multipliers](${PREMIUM_MULTIPLIER_URL})).`);
  if (record.usage) {
    const billed = `The provider billed ${usagePhrase(fullUsage(record.usage))}${rounds > 1 ? ` over the ${rounds} requests` : ''}`;
    if (!record.cost) lines.push(`\n${billed}; herald.prices has no price for this model.`);
    else if (!completed(record)) lines.push(`\n${billed}: ${usd(record.cost.billedUsd)} at the \`${record.cost.priceKey}\` prices, spent with nothing saved.`);
    else {
      const estimate = record.cost.withoutHerald ? ` (${usagePhrase(fullUsage(record.cost.withoutHerald))})` : '';
      lines.push(`\n${billed}: ${usd(record.cost.billedUsd)} at the \`${record.cost.priceKey}\` prices. Without Herald, the original sent once would have come to about ${usd(record.cost.unoptimizedUsd)}${estimate}: Herald ${moneyComparison(record.cost.billedUsd, record.cost.unoptimizedUsd)}.`);
    }
  }
  if (record.decisions.length > 0) {
    lines.push('', '| strategy | result | tokens | why |', '|---|---|---|---|');
    for (const decision of record.decisions) {
      const tokens = decision.tokensBefore === decision.tokensAfter ? '—' : `${decision.tokensBefore - decision.tokensAfter > 0 ? '−' : '+'}${Math.abs(decision.tokensBefore - decision.tokensAfter)}`;
      lines.push(`| ${decision.strategy} | ${decision.action} | ${tokens} | ${decision.reason.replace(/\|/g, '\\|')} |`);
    }
  }
  if (record.handles.length > 0) lines.push('', `Elided originals can be opened with **Herald: Retrieve Elided Content**: ${record.handles.map((handle) => `\`${handle}\``).join(', ')}.`);
  if (record.retrievals > 0) lines.push('', `The model asked for ${record.retrievals} original${record.retrievals === 1 ? '' : 's'} during the turn, and Herald answered: each answer was one more request carrying the whole conversation, counted above.`);
  return lines.join('\n');
}

/** The first line: where it went and what it came to, said once and the same way the Decisions view says it. */
function headline(record: RequestRecord, rounds: number): string {
  const to = `**Your last request, to ${record.model}**`;
  if (record.status === 'failed') return `${to}, failed: nothing was saved.`;
  if (record.status === 'cancelled') return `${to}, was stopped before the answer was complete: nothing counts as saved.`;
  if (record.status === 'served-from-cache') return `${to}: answered from Herald's cache, ${formatCount(record.tokensBefore)} tokens not sent.`;
  return `${to}: ${tokensLine(record.tokensBefore, record.tokensAfter, rounds, savedPercentOf(record))}, optimized in ${Math.round(record.optimizeMs)} ms.`;
}
