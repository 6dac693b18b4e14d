/**
 * The optimizer `herald serve` builds: one pipeline per tenant over shared storage, in the
 * gateway's process or in each of its workers. Each tenant's view (see `gatewayOptimizer.ts`)
 * has a stash over its own namespace of the shared blob store, its memo entries under its scope
 * and its pins under session ids that carry it. With a shared store (folder, Redis) the pins a
 * turn changes and the answers it stores are written before the call returns, so the next turn
 * reads them wherever it runs; on a pool's worker the run's memo and pins are written right
 * after it answered instead (`deferWrites`), the pool holding the session's next task until then.
 */
import type { ChatRequest } from '../core/chat/types';
import { MessageMemo } from '../core/pipeline/messageMemo';
import { Pipeline, sessionIdOf, type PipelineConfig } from '../core/pipeline/pipeline';
import { SessionStateStore } from '../core/pipeline/sessionState';
import type { Strategy } from '../core/pipeline/types';
import type { Logger } from '../core/ports';
import { MemoryBlobStore, type BlobStore } from '../core/stash/blobStore';
import { ScopedBlobStore } from '../core/stash/scopedBlobStore';
import { Stash } from '../core/stash/stash';
import type { StoreResponseCache } from '../core/store/storeResponseCache';
import { requestKey, SEMANTIC_CACHE_ID } from '../core/strategies/semanticCache';
import { recordLoadedTools, TOOL_CATALOG_ID } from '../core/strategies/toolCatalog';
import type { TokenCounter } from '../core/tokens/tokenCounter';
import { tenantNamespace, tenantStashKey, type GatewayOptimizer, type TenantScope } from './gatewayOptimizer';
import type { Tenant } from './tenants';

export interface TenantOptimizerOptions {
  readonly strategies: readonly Strategy[];
  readonly config: PipelineConfig;
  /** Where every tenant's stash entries live, each tenant under its own namespace. */
  readonly stashStore: BlobStore;
  /** The install's stash key; each tenant's is derived from it. */
  readonly stashKey: Uint8Array;
  readonly memo: MessageMemo;
  readonly state: SessionStateStore;
  readonly tokens: TokenCounter;
  readonly logger: Logger;
  /** semantic_cache's answers when they live in a shared store (the strategies were built with it). */
  readonly responseCache?: StoreResponseCache;
  /**
   * Whether an anonymous request's originals go to the shared store (under its random
   * namespace, found by no other request) rather than to memory: on a worker pool, where the
   * gateway's process answers the in-turn retrievals of what a worker stashed.
   */
  readonly anonymousStashShared?: boolean;
  /** Most tenants whose pipelines and stashes are kept in memory; the least recently used is rebuilt when it returns. Default 64. */
  readonly maxTenants?: number;
}

/** A tenant's pipeline and the stash and pins it uses. */
interface TenantParts {
  readonly pipeline: Pipeline;
  readonly stash: Stash;
  readonly state: SessionStateStore;
}

/** One pipeline and stash per tenant over shared storage, built when the tenant first appears. */
export class TenantOptimizer implements GatewayOptimizer {
  readonly tokens: TokenCounter;
  private readonly tenants = new Map<string, TenantParts>();
  private readonly cacheEnabled: boolean;
  /** Loads the catalog recorded in this process, written before the next run reads the pins. */
  private pinWrites: Promise<void> = Promise.resolve();

  constructor(private readonly options: TenantOptimizerOptions) {
    this.tokens = options.tokens;
    const cache = options.strategies.find((strategy) => strategy.id === SEMANTIC_CACHE_ID);
    this.cacheEnabled = cache !== undefined && (options.config.enabled?.[SEMANTIC_CACHE_ID] ?? cache.defaultEnabled);
  }

  forTenant(tenant: Tenant): TenantScope {
    const parts = tenant.anonymous ? this.build(tenant) : this.partsOf(tenant);
    return {
      optimize: async (request, signal, targetKind, firstMarkerRisk, deferWrites) => {
        await this.pinWrites;
        // semantic_cache reads its answer synchronously: one another process stored is loaded first.
        if (this.cacheEnabled && this.options.responseCache && !tenant.anonymous) await this.options.responseCache.prefetch([requestKey(request, tenant.id)]);
        return parts.pipeline.run(request, { signal, sessionId: sessionOf(request, tenant), ...(targetKind ? { targetKind } : {}), ...(firstMarkerRisk !== undefined ? { firstMarkerRisk } : {}), ...(deferWrites ? { deferWrites } : {}) });
      },
      loadTools: (sessionId, names) => this.loadTools(parts.state, sessionId, names),
      afterResponse: async (request, answer, sessionId) => {
        await parts.state.prefetch(sessionId);
        await parts.pipeline.afterResponse(request, answer, sessionId);
        await Promise.all([parts.state.flush(sessionId), this.options.responseCache?.flush()]);
      },
      retrieve: (handle) => parts.stash.retrieve(handle),
    };
  }

  private loadTools(state: SessionStateStore, sessionId: string, names: readonly string[]): Promise<void> {
    const written = this.pinWrites.then(async () => {
      await state.prefetch(sessionId);
      recordLoadedTools(state.scope(sessionId, TOOL_CATALOG_ID), names);
      await state.flush(sessionId);
    });
    // A failed write is the caller's to hear about; later runs go on.
    this.pinWrites = written.catch(() => undefined);
    return written;
  }

  private partsOf(tenant: Tenant): TenantParts {
    const known = this.tenants.get(tenant.id);
    if (known) {
      this.tenants.delete(tenant.id);
      this.tenants.set(tenant.id, known);
      return known;
    }
    const parts = this.build(tenant);
    this.tenants.set(tenant.id, parts);
    while (this.tenants.size > (this.options.maxTenants ?? 64)) this.tenants.delete(this.tenants.keys().next().value as string);
    return parts;
  }

  /**
   * A tenant's parts. An anonymous request's memo and pins are its own and in memory only (its
   * originals too, unless {@link TenantOptimizerOptions.anonymousStashShared}), and it gets no
   * cached answer: what it leaves is found by no other request.
   */
  private build(tenant: Tenant): TenantParts {
    const { options } = this;
    const shared = !tenant.anonymous || options.anonymousStashShared === true;
    const stash = new Stash({
      store: shared ? new ScopedBlobStore(options.stashStore, tenantNamespace(tenant)) : new MemoryBlobStore(),
      key: tenantStashKey(options.stashKey, tenant),
      onProblem: (code, message) => options.logger.warn(code, message),
    });
    const state = tenant.anonymous ? new SessionStateStore() : options.state;
    const memo = tenant.anonymous ? new MessageMemo() : options.memo;
    const hasCache = options.strategies.some((strategy) => strategy.id === SEMANTIC_CACHE_ID);
    const config: PipelineConfig = {
      ...options.config,
      scope: tenant.id,
      ...(hasCache ? { options: { ...(options.config.options ?? {}), [SEMANTIC_CACHE_ID]: { ...(options.config.options?.[SEMANTIC_CACHE_ID] ?? {}), scope: tenant.id } } } : {}),
      ...(hasCache && tenant.anonymous ? { enabled: { ...(options.config.enabled ?? {}), [SEMANTIC_CACHE_ID]: false } } : {}),
    };
    const pipeline = new Pipeline(options.strategies, config, { stash, memo, state, tokens: options.tokens, logger: options.logger });
    return { pipeline, stash, state };
  }
}

/** The session id carries the tenant, so pins never cross tenants either. */
export function sessionOf(request: ChatRequest, tenant: Tenant): string {
  return `${tenant.id}:${sessionIdOf(request)}`;
}
