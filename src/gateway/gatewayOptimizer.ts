/**
 * What the gateway asks of the optimizer, and the one `herald serve` builds. Every request is
 * answered by its tenant's view ({@link TenantScope}): a pipeline whose stash is the tenant's
 * own namespace of the shared blob store (with handles of its own key), whose decided history
 * is keyed under the tenant, whose pins live under session ids that carry the tenant, and
 * whose cached answers are scoped to it. So two people behind one gateway share nothing: a
 * handle quoted from another tenant is unknown, a message another tenant decided is decided
 * afresh, a cached answer is never served across. An anonymous request (no credential) gets a
 * view of its own that lives for that request only.
 */
import { createHmac } from 'node:crypto';
import type { ChatRequest } from '../core/chat/types';
import { MessageMemo } from '../core/pipeline/messageMemo';
import { Pipeline, sessionIdOf, type PipelineConfig, type PipelineResult } from '../core/pipeline/pipeline';
import { SessionStateStore } from '../core/pipeline/sessionState';
import type { Strategy, TargetKind } from '../core/pipeline/types';
import type { Logger } from '../core/ports';
import { MemoryBlobStore, type BlobStore } from '../core/stash/blobStore';
import { ScopedBlobStore } from '../core/stash/scopedBlobStore';
import { Stash } from '../core/stash/stash';
import { SEMANTIC_CACHE_ID } from '../core/strategies/semanticCache';
import { recordLoadedTools, TOOL_CATALOG_ID } from '../core/strategies/toolCatalog';
import type { TokenCounter } from '../core/tokens/tokenCounter';
import type { Tenant } from './tenants';

/** The optimizer as one tenant sees it, for one request. */
export interface TenantScope {
  /** Runs the pipeline; undefined when the optimizer is off (requests go out untouched). `targetKind` as the flow gives it. */
  readonly optimize: ((request: ChatRequest, signal: AbortSignal, targetKind?: TargetKind) => Promise<PipelineResult>) | undefined;
  /** Records tools the catalog loaded inside a turn of a session (the flow's `loadTools`). */
  loadTools?(sessionId: string, names: readonly string[]): void;
  afterResponse(request: ChatRequest, answer: unknown, sessionId: string): Promise<void>;
  /** The original behind one of this tenant's handles; undefined for any other handle. */
  retrieve(handle: string): Promise<string | undefined>;
}

export interface GatewayOptimizer {
  readonly tokens: TokenCounter;
  /** The tenant's view, for one request. */
  forTenant(tenant: Tenant): TenantScope;
}

/** The stash key of a tenant: derived from the install's key, so handles differ between tenants and agree between replicas sharing the key. */
export function tenantStashKey(key: Uint8Array, tenant: Tenant): Uint8Array {
  return createHmac('sha256', key).update(`herald-tenant-stash\u0000${tenant.anonymous ? 'anonymous' : tenant.id}`, 'utf8').digest();
}

/** The namespace of a tenant's entries in the shared blob store. */
export function tenantNamespace(tenant: Tenant): string {
  return `t-${tenant.id}`;
}

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
  /** Most tenants whose pipelines and stashes are kept in memory; the least recently used is rebuilt when it returns. Default 64. */
  readonly maxTenants?: number;
}

/** A tenant's pipeline and the stash it elides into. */
interface TenantParts {
  readonly pipeline: Pipeline;
  readonly stash: Stash;
  readonly state: SessionStateStore;
}

/** One pipeline and stash per tenant over shared storage, built when the tenant first appears. */
export class TenantOptimizer implements GatewayOptimizer {
  readonly tokens: TokenCounter;
  private readonly tenants = new Map<string, TenantParts>();

  constructor(private readonly options: TenantOptimizerOptions) {
    this.tokens = options.tokens;
  }

  forTenant(tenant: Tenant): TenantScope {
    const parts = tenant.anonymous ? this.build(tenant) : this.partsOf(tenant);
    return {
      // The session id carries the tenant, so pins never cross tenants either.
      optimize: (request, signal, targetKind) => parts.pipeline.run(request, { signal, sessionId: `${tenant.id}:${sessionIdOf(request)}`, ...(targetKind ? { targetKind } : {}) }),
      loadTools: (sessionId, names) => {
        recordLoadedTools(parts.state.scope(sessionId, TOOL_CATALOG_ID), names);
      },
      afterResponse: (request, answer, sessionId) => parts.pipeline.afterResponse(request, answer, sessionId),
      retrieve: (handle) => parts.stash.retrieve(handle),
    };
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
   * A tenant's parts. An anonymous request's stash, memo and pins are its own and in memory
   * only, and it gets no cached answer: what it leaves is found by no other request.
   */
  private build(tenant: Tenant): TenantParts {
    const { options } = this;
    const stash = new Stash({
      store: tenant.anonymous ? new MemoryBlobStore() : new ScopedBlobStore(options.stashStore, tenantNamespace(tenant)),
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
