/**
 * The session's requests and their decisions: what the sidebar, the status bar, `/explain`
 * and the savings report show. Pure and bounded; metadata only (no prompt text).
 */
import type { RequestRecord } from '../../core/flow/requestFlow';

/** Report files carry this; a reader of another version must refuse them. */
export const SAVINGS_REPORT_SCHEMA_VERSION = 1;

export interface SessionTotals {
  readonly requests: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly tokensSaved: number;
  /** Saved share of all tokens sent, 0–100. */
  readonly savedPercent: number;
  readonly retrievals: number;
  readonly failures: number;
}

export class DecisionLog {
  private readonly records: RequestRecord[] = [];
  private readonly listeners = new Set<() => void>();
  private totals: SessionTotals = { requests: 0, tokensBefore: 0, tokensAfter: 0, tokensSaved: 0, savedPercent: 0, retrievals: 0, failures: 0 };

  /** @param capacity how many requests the sidebar keeps; totals count every request of the session. */
  constructor(private readonly capacity = 200) {}

  add(record: RequestRecord): void {
    this.records.push(record);
    if (this.records.length > this.capacity) this.records.shift();
    const tokensBefore = this.totals.tokensBefore + record.tokensBefore;
    const tokensAfter = this.totals.tokensAfter + record.tokensAfter;
    this.totals = {
      requests: this.totals.requests + 1,
      tokensBefore,
      tokensAfter,
      tokensSaved: tokensBefore - tokensAfter,
      savedPercent: percentSaved(tokensBefore, tokensAfter),
      retrievals: this.totals.retrievals + record.retrievals,
      failures: this.totals.failures + (record.status === 'failed' || record.status === 'forwarded-original' ? 1 : 0),
    };
    for (const listener of this.listeners) listener();
  }

  /** Newest last. */
  list(): readonly RequestRecord[] {
    return this.records;
  }

  last(): RequestRecord | undefined {
    return this.records[this.records.length - 1];
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

export function percentSaved(before: number, after: number): number {
  if (before <= 0) return 0;
  return Math.round(((before - after) / before) * 1000) / 10;
}

const CSV_COLUMNS = ['id', 'started', 'model', 'status', 'tokens_before', 'tokens_after', 'saved_percent', 'optimize_ms', 'total_ms', 'retrievals', 'strategies_applied', 'handles', 'error'] as const;

/** One line per request, RFC 4180 quoting. */
export function savingsReportCsv(records: readonly RequestRecord[]): string {
  const rows = records.map((record) => [
    record.id,
    new Date(record.startedAt).toISOString(),
    record.model,
    record.status,
    String(record.tokensBefore),
    String(record.tokensAfter),
    String(percentSaved(record.tokensBefore, record.tokensAfter)),
    String(Math.round(record.optimizeMs)),
    String(Math.round(record.totalMs)),
    String(record.retrievals),
    record.decisions.filter((decision) => decision.status === 'applied').map((decision) => decision.strategy).join(' '),
    record.handles.join(' '),
    record.error ?? '',
  ]);
  return [CSV_COLUMNS.join(','), ...rows.map((row) => row.map(csvField).join(','))].join('\r\n') + '\r\n';
}

/** The whole session, decisions included, with a schema version. */
export function savingsReportJson(records: readonly RequestRecord[], totals: SessionTotals): string {
  return JSON.stringify({ schema: SAVINGS_REPORT_SCHEMA_VERSION, generatedBy: 'herald', totals, requests: records }, null, 2) + '\n';
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
