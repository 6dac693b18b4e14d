/**
 * The optimizer `herald serve` builds: one stash, memo and session store for every client, and
 * one pipeline per tenant, so two people behind one gateway never share pins or cached
 * answers, while each one's conversations are told apart by the memo's chain hashes as
 * everywhere else. The same class runs in the gateway's process and in each of its workers;
 * with a shared store (folder, Redis) the pins a turn changes and the answers it stores are
 * written before the call returns, so the next turn reads them wherever it runs.
 */
import type { ChatRequest } from '../core/chat/types';
import { Pipeline, sessionIdOf, type PipelineConfig, type PipelineResult } from '../core/pipeline/pipeline';
import type { MessageMemo } from '../core/pipeline/messageMemo';
import type { SessionStateStore } from '../core/pipeline/sessionState';
import type { Strategy, TargetKind } from '../core/pipeline/types';
import { recordLoadedTools, TOOL_CATALOG_ID } from '../core/strategies/toolCatalog';
import type { Logger } from '../core/ports';
import type { Stash } from '../core/stash/stash';
import type { StoreResponseCache } from '../core/store/storeResponseCache';
import type { TokenCounter } from '../core/tokens/tokenCounter';
import { requestKey, SEMANTIC_CACHE_ID } from '../core/strategies/semanticCache';
import type { GatewayOptimizer } from './gatewayOptimizer';

export interface TenantOptimizerOptions {
  readonly strategies: readonly Strategy[];
  readonly config: PipelineConfig;
  readonly stash: Stash;
  readonly memo: MessageMemo;
  readonly state: SessionStateStore;
  readonly tokens: TokenCounter;
  readonly logger: Logger;
  /** semantic_cache's answers when they live in a shared store (the strategies were built with it). */
  readonly responseCache?: StoreResponseCache;
  /** Most tenants whose pipelines are kept; the least recently used is rebuilt when it returns. Default 64. */
  readonly maxTenants?: number;
}

/** One pipeline per tenant over shared storage, built when the tenant first appears. */
export class TenantOptimizer implements GatewayOptimizer {
  readonly tokens: TokenCounter;
  private readonly pipelines = new Map<string, Pipeline>();
  private readonly cacheEnabled: boolean;
  /** Loads the catalog recorded in this process, written before the next run reads the pins. */
  private pinWrites: Promise<void> = Promise.resolve();

  constructor(private readonly options: TenantOptimizerOptions) {
    this.tokens = options.tokens;
    const cache = options.strategies.find((strategy) => strategy.id === SEMANTIC_CACHE_ID);
    this.cacheEnabled = cache !== undefined && (options.config.enabled?.[SEMANTIC_CACHE_ID] ?? cache.defaultEnabled);
  }

  readonly optimize = async (request: ChatRequest, tenant: string, signal: AbortSignal, targetKind?: TargetKind): Promise<PipelineResult> => {
    await this.pinWrites;
    // semantic_cache reads its answer synchronously: one another process stored is loaded first.
    if (this.cacheEnabled && this.options.responseCache) await this.options.responseCache.prefetch([requestKey(request, tenant)]);
    return this.pipelineOf(tenant).run(request, { signal, sessionId: this.sessionOf(request, tenant), ...(targetKind ? { targetKind } : {}) });
  };

  /** The session id carries the tenant, so pins never cross clients here either. */
  sessionOf(request: ChatRequest, tenant: string): string {
    return `${tenant}:${sessionIdOf(request)}`;
  }

  loadTools(sessionId: string, names: readonly string[]): Promise<void> {
    const state = this.options.state;
    const written = this.pinWrites.then(async () => {
      await state.prefetch(sessionId);
      recordLoadedTools(state.scope(sessionId, TOOL_CATALOG_ID), names);
      await state.flush(sessionId);
    });
    // A failed write is the caller's to hear about; later runs go on.
    this.pinWrites = written.catch(() => undefined);
    return written;
  }

  async afterResponse(request: ChatRequest, answer: unknown, sessionId: string, tenant: string): Promise<void> {
    await this.options.state.prefetch(sessionId);
    await this.pipelineOf(tenant).afterResponse(request, answer, sessionId);
    await Promise.all([this.options.state.flush(sessionId), this.options.responseCache?.flush()]);
  }

  retrieve(handle: string): Promise<string | undefined> {
    return this.options.stash.retrieve(handle);
  }

  private pipelineOf(tenant: string): Pipeline {
    let pipeline = this.pipelines.get(tenant);
    if (pipeline) {
      this.pipelines.delete(tenant);
      this.pipelines.set(tenant, pipeline);
      return pipeline;
    }
    const hasCache = this.options.strategies.some((strategy) => strategy.id === SEMANTIC_CACHE_ID);
    const options = hasCache ? { ...(this.options.config.options ?? {}), [SEMANTIC_CACHE_ID]: { ...(this.options.config.options?.[SEMANTIC_CACHE_ID] ?? {}), scope: tenant } } : this.options.config.options;
    pipeline = new Pipeline(this.options.strategies, { ...this.options.config, ...(options ? { options } : {}) }, { stash: this.options.stash, memo: this.options.memo, state: this.options.state, tokens: this.options.tokens, logger: this.options.logger });
    this.pipelines.set(tenant, pipeline);
    while (this.pipelines.size > (this.options.maxTenants ?? 64)) this.pipelines.delete(this.pipelines.keys().next().value as string);
    return pipeline;
  }
}
