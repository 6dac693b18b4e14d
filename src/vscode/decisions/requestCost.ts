/**
 * A request's money figures from the provider's usage and the price table. Pure.
 *
 * "With Herald" is what the provider billed for every round Herald sent (its own usage figures,
 * cache reads and writes at their prices). "Without Herald" is the original request sent once
 * and answered once, as the provider would have billed it. Herald's own calls (the library's plan,
 * the filter's check) are cost with nothing against them: without Herald they would not exist.
 */
import { priceFor, usageCost, withoutHeraldUsage, type InputSplit, type PriceTable } from '../../core/costs/prices';
import type { RequestRecord } from '../../core/flow/requestFlow';
import { completed } from './decisionLog';

/** What the host knows of a turn beyond its record. */
export interface TurnBillingFacts {
  /** The original request's input as the provider's cache would have billed it (see `originalBills.ts`). */
  readonly original?: InputSplit;
  /** Output tokens of the round whose answer the caller got (the last usage the provider reported). */
  readonly answerOutputTokens?: number;
}

/** The record with `cost` filled in when the target bills by the token, the provider reported usage and the table knows the model. */
export function withCost(record: RequestRecord, prices: PriceTable, facts: TurnBillingFacts = {}, model = record.family ?? record.model): RequestRecord {
  if (record.billing !== 'tokens' || !record.usage) return record;
  const entry = priceFor(model, prices);
  if (!entry) return record;
  const billedUsd = usageCost(record.usage, entry.price);
  // Herald's own call would not exist without Herald; a failed or cancelled turn saved nothing, so it is set against itself.
  if (record.origin === 'herald') return { ...record, cost: { priceKey: entry.key, billedUsd, unoptimizedUsd: 0 } };
  if (!completed(record)) return { ...record, cost: { priceKey: entry.key, billedUsd, unoptimizedUsd: billedUsd } };
  const withoutHerald = withoutHeraldUsage({
    usage: record.usage,
    tokensBefore: record.tokensBefore,
    tokensSent: record.tokensAfter,
    ...(facts.original ? { original: facts.original } : {}),
    ...(facts.answerOutputTokens !== undefined ? { answerOutputTokens: facts.answerOutputTokens } : {}),
  });
  return { ...record, cost: { priceKey: entry.key, billedUsd, unoptimizedUsd: usageCost(withoutHerald, entry.price), withoutHerald } };
}
