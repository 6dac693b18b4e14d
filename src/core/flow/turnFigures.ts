/**
 * A turn's token figures as a person reads them in a log line: what going direct would have
 * sent, what Herald sent over every round of the turn, and, when the provider reported usage,
 * the provider's own figures for the same rounds (read, written, fresh), which are what it bills.
 */
import { fullUsage, totalInputTokens } from '../costs/usage';
import type { RequestRecord } from './requestFlow';

export function describeTurnTokens(record: Pick<RequestRecord, 'tokensBefore' | 'tokensAfter' | 'rounds' | 'usage'>): string {
  const rounds = record.rounds ?? 1;
  const counted = `${record.tokensBefore} → ${record.tokensAfter} tokens${rounds > 1 ? ` over ${rounds} rounds` : ''}`;
  if (!record.usage || totalInputTokens(record.usage) === 0) return counted;
  const usage = fullUsage(record.usage);
  return `${counted}; provider billed ${totalInputTokens(usage)} input tokens (${usage.cacheReadTokens} cache read, ${usage.cacheWriteTokens} cache write, ${usage.inputTokens} fresh)`;
}
