/**
 * The recent requests and their decisions: what the sidebar, the status bar, `/explain` and the
 * savings report show. Pure and bounded; metadata only (no prompt text). A snapshot of it is
 * kept in the extension's storage, so a window reload keeps the decisions (see
 * `decisionStore.ts`).
 */
import type { RequestRecord } from '../../core/flow/requestFlow';

/**
 * Report files carry this; a reader of another version must refuse them. Version 3: `tokensAfter`
 * counts every round Herald sent (`roundTokens`), savings may be negative, `requests` leaves out
 * Herald's own calls (`ownCalls`), and `cost.withoutHerald` holds the estimate's usage.
 */
export const SAVINGS_REPORT_SCHEMA_VERSION = 3;

export interface SessionTotals {
  /** Requests the user's chat (or another caller) sent; Herald's own calls are counted apart. */
  readonly requests: number;
  /** Herald's own calls (the library's plan, the filter's check): cost, never savings. */
  readonly ownCalls: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Original tokens less the tokens Herald sent over every round; negative when Herald sent more than going direct would have. */
  readonly tokensSaved: number;
  /** Saved share of the original tokens, up to 100; negative when Herald sent more. */
  readonly savedPercent: number;
  readonly retrievals: number;
  /** Requests the target failed, or sent unoptimized because the optimizer failed. */
  readonly failures: number;
  /** Requests the caller stopped. */
  readonly cancelled: number;
  /** Premium requests spent on Copilot-hosted models (Herald's own rounds included), before the model's multiplier. */
  readonly premiumRequests: number;
  /** USD the providers billed, at the price table, for the requests it could price, Herald's own calls included. */
  readonly billedUsd: number;
  /** Herald's estimate in USD of the same requests without Herald: each original sent once; Herald's own calls add nothing. */
  readonly unoptimizedUsd: number;
  /** How many requests carry a money figure. */
  readonly pricedRequests: number;
}

export const EMPTY_TOTALS: SessionTotals = { requests: 0, ownCalls: 0, tokensBefore: 0, tokensAfter: 0, tokensSaved: 0, savedPercent: 0, retrievals: 0, failures: 0, cancelled: 0, premiumRequests: 0, billedUsd: 0, unoptimizedUsd: 0, pricedRequests: 0 };

/** Whether a request's tokens count as sent (and so its savings as saved): a failed or cancelled request saved nothing. */
export function completed(record: RequestRecord): boolean {
  return record.status !== 'failed' && record.status !== 'cancelled';
}

/** Whether Herald made this request on its own behalf: it costs, and saves nothing (without Herald it would not exist). */
export function isOwnCall(record: RequestRecord): boolean {
  return record.origin === 'herald';
}

/** Whether a request's tokens count towards the savings: the caller's, and completed. */
export function countsTowardsSavings(record: RequestRecord): boolean {
  return completed(record) && !isOwnCall(record);
}

/**
 * Tokens a request saved: the original less what Herald sent over every round (negative when a
 * retrieval sent more than the original); 0 for a failed or cancelled request and for Herald's own calls.
 */
export function savedTokensOf(record: RequestRecord): number {
  return countsTowardsSavings(record) ? record.tokensBefore - record.tokensAfter : 0;
}

/** The saved share of the original, as every view shows it (negative: Herald sent more). */
export function savedPercentOf(record: RequestRecord): number {
  return countsTowardsSavings(record) ? percentSaved(record.tokensBefore, record.tokensAfter) : 0;
}


export class DecisionLog {
  private readonly records: RequestRecord[] = [];
  private readonly listeners = new Set<() => void>();
  private totals: SessionTotals = EMPTY_TOTALS;

  /** @param capacity how many requests the sidebar keeps; totals count every request. */
  constructor(private readonly capacity = 200) {}

  add(record: RequestRecord): void {
    this.records.push(record);
    if (this.records.length > this.capacity) this.records.shift();
    this.totals = addToTotals(this.totals, record);
    for (const listener of this.listeners) listener();
  }

  /** Puts back a saved history (oldest first), keeping its totals; used once at start-up. */
  restore(records: readonly RequestRecord[], totals: SessionTotals): void {
    this.records.splice(0, this.records.length, ...records.slice(-this.capacity));
    this.totals = totals;
    for (const listener of this.listeners) listener();
  }

  /** Newest last. */
  list(): readonly RequestRecord[] {
    return this.records;
  }

  /** The newest request the user's own chat sent (Herald's planning and checking calls skipped). */
  last(): RequestRecord | undefined {
    for (let index = this.records.length - 1; index >= 0; index--) if (this.records[index]!.origin !== 'herald') return this.records[index];
    return undefined;
  }

  sessionTotals(): SessionTotals {
    return this.totals;
  }

  /** Handles of the recent requests, newest first, each once. */
  recentHandles(limit = 50): { handle: string; strategy: string; requestId: string; startedAt: number }[] {
    const seen = new Set<string>();
    const found: { handle: string; strategy: string; requestId: string; startedAt: number }[] = [];
    for (let index = this.records.length - 1; index >= 0 && found.length < limit; index--) {
      const record = this.records[index]!;
      for (const decision of record.decisions) {
        for (const handle of decision.handles) {
          if (seen.has(handle) || found.length >= limit) continue;
          seen.add(handle);
          found.push({ handle, strategy: decision.strategy, requestId: record.id, startedAt: record.startedAt });
        }
      }
    }
    return found;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}

/**
 * The totals with one more request. A failed or cancelled request adds its rounds, premium
 * requests and money (they were spent) but no tokens; Herald's own call adds its cost and its
 * premium requests, and is counted apart from the caller's requests.
 */
export function addToTotals(totals: SessionTotals, record: RequestRecord): SessionTotals {
  const own = isOwnCall(record);
  const counted = countsTowardsSavings(record);
  const tokensBefore = totals.tokensBefore + (counted ? record.tokensBefore : 0);
  const tokensAfter = totals.tokensAfter + (counted ? record.tokensAfter : 0);
  return {
    requests: totals.requests + (own ? 0 : 1),
    ownCalls: (totals.ownCalls ?? 0) + (own ? 1 : 0),
    tokensBefore,
    tokensAfter,
    tokensSaved: tokensBefore - tokensAfter,
    savedPercent: percentSaved(tokensBefore, tokensAfter),
    retrievals: totals.retrievals + (own ? 0 : record.retrievals + (record.callerRetrievals ?? 0)),
    failures: totals.failures + (!own && (record.status === 'failed' || record.status === 'forwarded-original') ? 1 : 0),
    cancelled: totals.cancelled + (!own && record.status === 'cancelled' ? 1 : 0),
    premiumRequests: totals.premiumRequests + (record.premiumRequests ?? 0),
    billedUsd: totals.billedUsd + (record.cost?.billedUsd ?? 0),
    unoptimizedUsd: totals.unoptimizedUsd + (own ? 0 : record.cost?.unoptimizedUsd ?? 0),
    pricedRequests: totals.pricedRequests + (record.cost ? 1 : 0),
  };
}

/** Totals worked out from records alone (a history saved before the figures counted every round). */
export function totalsOf(records: readonly RequestRecord[]): SessionTotals {
  return records.reduce(addToTotals, EMPTY_TOTALS);
}

export function percentSaved(before: number, after: number): number {
  if (before <= 0) return 0;
  return Math.round(((before - after) / before) * 1000) / 10;
}

const CSV_COLUMNS = [
  'id', 'started', 'model', 'origin', 'status', 'tokens_before', 'tokens_after', 'saved_tokens', 'saved_percent', 'optimize_ms', 'total_ms', 'rounds', 'round_tokens', 'billing', 'premium_requests',
  'billed_input_tokens', 'billed_cached_tokens', 'billed_cache_write_tokens', 'billed_output_tokens', 'billed_usd', 'without_herald_usd', 'price_key', 'retrievals', 'strategies_applied', 'handles', 'error',
] as const;

/**
 * One line per request, RFC 4180 quoting. Empty cells where a figure is unknown (no usage
 * reported, no price). `tokens_after` is every round Herald sent (`round_tokens` one by one);
 * `without_herald_usd` is the original request sent once, 0 for Herald's own calls.
 */
export function savingsReportCsv(records: readonly RequestRecord[]): string {
  const rows = records.map((record) => [
    record.id,
    new Date(record.startedAt).toISOString(),
    record.model,
    record.origin ?? 'caller',
    record.status,
    String(record.tokensBefore),
    String(record.tokensAfter),
    String(savedTokensOf(record)),
    String(savedPercentOf(record)),
    String(Math.round(record.optimizeMs)),
    String(Math.round(record.totalMs)),
    String(record.rounds ?? ''),
    (record.roundTokens ?? []).join(' '),
    record.billing ?? 'unknown',
    String(record.premiumRequests ?? 0),
    optional(record.usage?.inputTokens),
    optional(record.usage?.cacheReadTokens),
    optional(record.usage?.cacheWriteTokens),
    optional(record.usage?.outputTokens),
    record.cost ? record.cost.billedUsd.toFixed(6) : '',
    record.cost ? record.cost.unoptimizedUsd.toFixed(6) : '',
    record.cost?.priceKey ?? '',
    String(record.retrievals + (record.callerRetrievals ?? 0)),
    record.decisions.filter((decision) => decision.status === 'applied').map((decision) => decision.strategy).join(' '),
    record.handles.join(' '),
    record.error ?? '',
  ]);
  return [CSV_COLUMNS.join(','), ...rows.map((row) => row.map(csvField).join(','))].join('\r\n') + '\r\n';
}

/** The whole history, decisions included, with a schema version. */
export function savingsReportJson(records: readonly RequestRecord[], totals: SessionTotals): string {
  return JSON.stringify({ schema: SAVINGS_REPORT_SCHEMA_VERSION, generatedBy: 'herald', totals, requests: records }, null, 2) + '\n';
}

function optional(value: number | undefined): string {
  return value === undefined ? '' : String(value);
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
