/**
 * The gateway's optimizer when the pipeline runs on the worker pool: each call becomes a pool
 * task carrying the request's bytes as the client sent them (parsed in the worker, so the event
 * loop never parses or serializes a large body twice), with a hard deadline.
 *
 * Writes to the store come after what a client waits for: a worker answers an optimization
 * before it writes the run's memo and pins, and an answer is stored after the client has it.
 * A session's tasks carry its id, so the pool runs them one at a time in order, each after the
 * writes before it: the next turn reads what the last one left, as on the event loop.
 */
import { serializeRequest, type RequestFormat } from '../core/chat';
import type { ChatRequest } from '../core/chat/types';
import type { PipelineResult } from '../core/pipeline/pipeline';
import type { BlobStore } from '../core/stash/blobStore';
import { ScopedBlobStore } from '../core/stash/scopedBlobStore';
import { Stash } from '../core/stash/stash';
import type { Logger } from '../core/ports';
import { describeError } from '../core/errors';
import type { TokenCounter } from '../core/tokens/tokenCounter';
import { tenantNamespace, tenantStashKey, type GatewayOptimizer, type TenantScope } from './gatewayOptimizer';
import type { OptimizerPool } from './optimizerPool';
import { sessionOf } from './tenantOptimizer';
import type { Tenant } from './tenants';

/** The bytes a request arrived as, and their format: what a worker parses. */
export interface RequestSource {
  readonly bytes: Uint8Array;
  readonly format: RequestFormat;
}

export interface PooledOptimizerOptions {
  readonly pool: OptimizerPool;
  readonly tokens: TokenCounter;
  /** Where the workers stash originals (each tenant under its namespace): in-turn retrievals read them here. */
  readonly stashStore: BlobStore;
  /** The install's stash key; each tenant's is derived from it. */
  readonly stashKey: Uint8Array;
  /** Longest an optimization may take, queue included, before the request goes out as it came. */
  readonly deadlineMs: number;
  /** Told when an answer could not be stored (the client had it already). */
  readonly logger?: Logger;
}

export class PooledOptimizer implements GatewayOptimizer {
  readonly tokens: TokenCounter;
  /** The bytes behind each request the gateway parsed, so a worker parses them instead. */
  private readonly sources = new WeakMap<ChatRequest, RequestSource>();

  constructor(private readonly options: PooledOptimizerOptions) {
    this.tokens = options.tokens;
  }

  /** Names the bytes `request` was parsed from (the gateway calls it before the flow). */
  remember(request: ChatRequest, source: RequestSource): void {
    this.sources.set(request, source);
  }

  forTenant(tenant: Tenant): TenantScope {
    const { pool, deadlineMs } = this.options;
    let stash: Stash | undefined;
    return {
      optimize: async (request, signal, targetKind, firstMarkerRisk) => {
        const source = this.sourceOf(request);
        // The worker names the session the same way (TenantOptimizer), from the same bytes.
        const key = sessionOf(request, tenant);
        return (await pool.run({ type: 'optimize', body: source.bytes, format: source.format, tenant, ...(targetKind ? { targetKind } : {}), ...(firstMarkerRisk !== undefined ? { firstMarkerRisk } : {}) }, { bytes: source.bytes.byteLength, deadlineMs, signal, key })) as PipelineResult;
      },
      loadTools: async (sessionId, names) => {
        // In the middle of a turn, after the turn's own writes: the answer waits on it, the session's next turn too.
        await pool.run({ type: 'loadTools', sessionId, names, tenant }, { bytes: 0, deadlineMs, first: true, key: sessionId });
      },
      afterResponse: (request, answer, sessionId) => {
        const source = this.sourceOf(request);
        // Stored once the client has its answer; the session's next turn waits for it (a retry finds it).
        // It goes ahead of the optimizations waiting, as the writes it holds back do.
        void pool.run({ type: 'afterResponse', body: source.bytes, format: source.format, tenant, answer, sessionId }, { bytes: source.bytes.byteLength, deadlineMs, first: true, key: sessionId })
          .then(() => undefined, (error: unknown) => this.options.logger?.warn('after-response-failed', `Herald: an answer could not be handed back to the optimizer (${describeError(error).replace(/^Herald: /, '')}); the client had it already`));
        return Promise.resolve();
      },
      retrieve: (handle) => {
        // The tenant's namespace and key, as the worker that stashed the original had them.
        stash ??= new Stash({ store: new ScopedBlobStore(this.options.stashStore, tenantNamespace(tenant)), key: tenantStashKey(this.options.stashKey, tenant) });
        return stash.retrieve(handle);
      },
    };
  }

  private sourceOf(request: ChatRequest): RequestSource {
    const known = this.sources.get(request);
    if (known) return known;
    if (request.format !== 'openai' && request.format !== 'anthropic' && request.format !== 'responses') throw new Error('Herald: the optimizer pool takes requests in a provider\'s format');
    return { bytes: Buffer.from(JSON.stringify(serializeRequest(request)), 'utf8'), format: request.format };
  }
}
