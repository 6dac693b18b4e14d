/**
 * The gateway's metrics at `/metrics`, in Prometheus's text format (prom-client): requests,
 * tokens before and after, what the provider billed (its own usage figures, priced with the
 * price table), rounds and latencies per tenant (the user's name from `--users`, else the
 * tenant's hash, `anonymous` for requests without a credential; never a credential) and model; the queue, the workers and the store.
 * Its own registry, so two gateways in one process (tests) keep their counts apart.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DEFAULT_PRICES, priceFor, usageCost, type PriceTable } from '../core/costs/prices';
import type { GatewayRecord } from './gatewayServer';
import type { Admission } from './admission';
import type { PoolStats } from './optimizerPool';
import type { Tenant } from './tenants';

export interface GatewayMetricsSources {
  readonly pool?: () => PoolStats;
  readonly admission?: Admission;
  /** Whether the store answered its last health probe. */
  readonly storeUp?: () => boolean;
  readonly prices?: PriceTable;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'tenant' | 'model' | 'api' | 'status' | 'http_status'>;
  private readonly tokensBefore: Counter<'tenant' | 'model'>;
  private readonly tokensAfter: Counter<'tenant' | 'model'>;
  private readonly billedTokens: Counter<'tenant' | 'model' | 'kind'>;
  private readonly billedUsd: Counter<'tenant' | 'model'>;
  private readonly rounds: Counter<'tenant' | 'model'>;
  private readonly duration: Histogram<'api'>;
  private readonly optimizeDuration: Histogram<'api'>;
  private readonly refused: Counter<'reason'>;

  constructor(private readonly sources: GatewayMetricsSources = {}) {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'herald_requests_total', help: 'Requests answered, by tenant, model, API, Herald status and HTTP status.', labelNames: ['tenant', 'model', 'api', 'status', 'http_status'], registers });
    this.tokensBefore = new Counter({ name: 'herald_tokens_before_total', help: 'Tokens of requests as clients sent them (Herald\'s count).', labelNames: ['tenant', 'model'], registers });
    this.tokensAfter = new Counter({ name: 'herald_tokens_after_total', help: 'Tokens of requests as Herald sent them on (Herald\'s count).', labelNames: ['tenant', 'model'], registers });
    this.billedTokens = new Counter({ name: 'herald_billed_tokens_total', help: 'Tokens the provider reported billing, by kind (input, cache_read, cache_write, output).', labelNames: ['tenant', 'model', 'kind'], registers });
    this.billedUsd = new Counter({ name: 'herald_billed_usd_total', help: 'What the provider\'s usage figures cost at the price table\'s prices, in USD (models the table knows).', labelNames: ['tenant', 'model'], registers });
    this.rounds = new Counter({ name: 'herald_rounds_total', help: 'Requests sent to the provider: one per client request plus one per round of Herald\'s own tool answers.', labelNames: ['tenant', 'model'], registers });
    this.duration = new Histogram({ name: 'herald_request_duration_seconds', help: 'Time from a request\'s arrival to the end of its answer.', labelNames: ['api'], buckets: LATENCY_BUCKETS, registers });
    this.optimizeDuration = new Histogram({ name: 'herald_optimize_duration_seconds', help: 'Time the pipeline took on a request.', labelNames: ['api'], buckets: LATENCY_BUCKETS, registers });
    this.refused = new Counter({ name: 'herald_requests_refused_total', help: 'Requests refused before their body was read: queue-full (429) or body-memory-full (503).', labelNames: ['reason'], registers });
    const gauge = (name: string, help: string, read: () => number | undefined): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const value = read();
          if (value !== undefined) this.set(value);
        },
      });
    };
    gauge('herald_queue_depth', 'Optimizations waiting for a worker.', () => sources.pool?.().queued);
    gauge('herald_workers', 'Optimizer workers.', () => sources.pool?.().workers);
    gauge('herald_workers_busy', 'Optimizer workers running a request.', () => sources.pool?.().busy);
    gauge('herald_optimizations_abandoned', 'Optimizations abandoned at the deadline since the start (the original request went out).', () => sources.pool?.().abandoned);
    gauge('herald_body_bytes_in_flight', 'Bytes of request bodies the gateway holds now.', () => sources.admission?.stats().heldBytes);
    gauge('herald_requests_in_flight', 'Requests the gateway is answering now.', () => sources.admission?.stats().held);
    gauge('herald_store_up', '1 when the state store answered its last probe, 0 when not.', () => (sources.storeUp ? (sources.storeUp() ? 1 : 0) : undefined));
  }

  /** Counts one finished request. */
  observe(record: GatewayRecord, who: Tenant): void {
    // One series per user (or credential); requests without a credential share one.
    const tenant = who.user ?? (who.anonymous ? 'anonymous' : who.id);
    const model = record.family ?? 'unknown';
    this.requests.inc({ tenant, model, api: record.api, status: record.status, http_status: String(record.httpStatus) });
    this.tokensBefore.inc({ tenant, model }, record.tokensBefore);
    this.tokensAfter.inc({ tenant, model }, record.tokensAfter);
    this.rounds.inc({ tenant, model }, record.rounds ?? 0);
    this.duration.observe({ api: record.api }, record.totalMs / 1000);
    if (record.optimizeMs > 0) this.optimizeDuration.observe({ api: record.api }, record.optimizeMs / 1000);
    const usage = record.usage;
    if (!usage) return;
    for (const [kind, value] of [['input', usage.inputTokens], ['cache_read', usage.cacheReadTokens], ['cache_write', usage.cacheWriteTokens], ['output', usage.outputTokens]] as const) {
      if (value) this.billedTokens.inc({ tenant, model, kind }, value);
    }
    const price = priceFor(model, this.sources.prices ?? DEFAULT_PRICES);
    if (price) this.billedUsd.inc({ tenant, model }, usageCost(usage, price.price));
  }

  /** Counts a request refused before its body was read. */
  refusedRequest(reason: string): void {
    this.refused.inc({ reason });
  }

  /** The text Prometheus scrapes. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
