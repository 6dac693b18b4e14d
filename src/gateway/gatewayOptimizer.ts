/**
 * What the gateway asks of the optimizer, and the one `herald serve` builds: one stash, memo
 * and session store for every client, and one pipeline per tenant (a keyed hash of the client's
 * credential), so two people behind one gateway never share pins or cached answers, while
 * each one's conversations are told apart by the memo's chain hashes as everywhere else.
 */
import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { ChatRequest } from '../core/chat/types';
import { Pipeline, sessionIdOf, type PipelineConfig, type PipelineResult } from '../core/pipeline/pipeline';
import type { MessageMemo } from '../core/pipeline/messageMemo';
import type { SessionStateStore } from '../core/pipeline/sessionState';
import type { Strategy, TargetKind } from '../core/pipeline/types';
import { recordLoadedTools, TOOL_CATALOG_ID } from '../core/strategies/toolCatalog';
import type { Logger } from '../core/ports';
import type { Stash } from '../core/stash/stash';
import type { TokenCounter } from '../core/tokens/tokenCounter';
import { SEMANTIC_CACHE_ID } from '../core/strategies/semanticCache';

export interface GatewayOptimizer {
  readonly tokens: TokenCounter;
  /** Runs the pipeline; undefined when the optimizer is off (requests go out untouched). `targetKind` as the flow gives it. */
  readonly optimize: ((request: ChatRequest, tenant: string, signal: AbortSignal, targetKind?: TargetKind) => Promise<PipelineResult>) | undefined;
  /** Records tools the catalog loaded inside a turn of a session (the flow's `loadTools`). */
  loadTools?(sessionId: string, names: readonly string[]): void;
  afterResponse(request: ChatRequest, answer: unknown, sessionId: string, tenant: string): Promise<void>;
  retrieve(handle: string): Promise<string | undefined>;
}

/**
 * The tenant of a request: a keyed hash of the credential it carries (never the credential),
 * `local` for a request without one. Stable across restarts when the key is (the stash's).
 */
export function tenantOf(headers: IncomingHttpHeaders, key: Uint8Array): string {
  const credential = [headers['x-api-key'], headers.authorization].map((value) => (Array.isArray(value) ? value.join(',') : value ?? '')).join('\u0000');
  if (credential === '\u0000') return 'local';
  return createHmac('sha256', key).update(credential, 'utf8').digest('hex').slice(0, 16);
}

export interface TenantOptimizerOptions {
  readonly strategies: readonly Strategy[];
  readonly config: PipelineConfig;
  readonly stash: Stash;
  readonly memo: MessageMemo;
  readonly state: SessionStateStore;
  readonly tokens: TokenCounter;
  readonly logger: Logger;
  /** Most tenants whose pipelines are kept; the least recently used is rebuilt when it returns. Default 64. */
  readonly maxTenants?: number;
}

/** One pipeline per tenant over shared storage, built when the tenant first appears. */
export class TenantOptimizer implements GatewayOptimizer {
  readonly tokens: TokenCounter;
  private readonly pipelines = new Map<string, Pipeline>();

  constructor(private readonly options: TenantOptimizerOptions) {
    this.tokens = options.tokens;
  }

  readonly optimize = (request: ChatRequest, tenant: string, signal: AbortSignal, targetKind?: TargetKind): Promise<PipelineResult> =>
    this.pipelineOf(tenant).run(request, { signal, sessionId: `${tenant}:${sessionIdOf(request)}`, ...(targetKind ? { targetKind } : {}) });

  /** The session id carries the tenant, so pins never cross clients here either. */
  loadTools(sessionId: string, names: readonly string[]): void {
    recordLoadedTools(this.options.state.scope(sessionId, TOOL_CATALOG_ID), names);
  }

  async afterResponse(request: ChatRequest, answer: unknown, sessionId: string, tenant: string): Promise<void> {
    await this.pipelineOf(tenant).afterResponse(request, answer, sessionId);
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
