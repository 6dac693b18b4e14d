/** `/explain`: one request's decisions as Markdown a person reads in the chat. */
import type { RequestRecord } from '../../core/flow/requestFlow';
import { percentSaved } from '../decisions/decisionLog';

export function explainRecord(record: RequestRecord | undefined): string {
  if (!record) return 'No request has gone through a Herald model in this window yet. Pick a "Herald · …" model in the chat model picker and send something.';
  const lines = [
    `**Last request to ${record.model}**: ${record.tokensBefore.toLocaleString('en-US')} → ${record.tokensAfter.toLocaleString('en-US')} tokens (${percentSaved(record.tokensBefore, record.tokensAfter)}% saved), optimized in ${Math.round(record.optimizeMs)} ms.`,
  ];
  if (record.status === 'forwarded-original') lines.push(`\nThe optimizer failed (${record.error ?? 'unknown error'}), so the original request was sent.`);
  if (record.status === 'optimizer-off') lines.push('\nThe optimizer is off (Herald: Toggle Optimizer), so the request was sent as it was.');
  if (record.status === 'failed') lines.push(`\nThe model failed: ${record.error ?? 'unknown error'}.`);
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
