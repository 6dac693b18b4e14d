/** A request's money figures from the provider's usage and the price table. Pure. */
import { priceFor, unoptimizedCost, usageCost, type PriceTable } from '../../core/costs/prices';
import type { RequestRecord } from '../../core/flow/requestFlow';
import { completed } from './decisionLog';

/** The record with `cost` filled in when the target bills by the token, the provider reported usage and the table knows the model. */
export function withCost(record: RequestRecord, prices: PriceTable, model = record.family ?? record.model): RequestRecord {
  if (record.billing !== 'tokens' || !record.usage) return record;
  const entry = priceFor(model, prices);
  if (!entry) return record;
  const billedUsd = usageCost(record.usage, entry.price);
  // A failed or cancelled turn saved nothing: its estimate without Herald is what it cost.
  const removed = completed(record) ? record.tokensBefore - record.tokensAfter : 0;
  return { ...record, cost: { priceKey: entry.key, billedUsd, unoptimizedUsd: unoptimizedCost(record.usage, entry.price, removed, record.rounds ?? 1) } };
}
