/**
 * The gateway's optimizer when the pipeline runs on the worker pool: each call becomes a pool
 * task carrying the request's bytes as the client sent them (parsed in the worker, so the event
 * loop never parses or serializes a large body twice), with a hard deadline.
 */
import { serializeRequest, type RequestFormat } from '../core/chat';
import type { ChatRequest } from '../core/chat/types';
import type { PipelineResult } from '../core/pipeline/pipeline';
import type { BlobStore } from '../core/stash/blobStore';
import { ScopedBlobStore } from '../core/stash/scopedBlobStore';
import { Stash } from '../core/stash/stash';
import type { TokenCounter } from '../core/tokens/tokenCounter';
import { tenantNamespace, tenantStashKey, type GatewayOptimizer, type TenantScope } from './gatewayOptimizer';
import type { OptimizerPool } from './optimizerPool';
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
}

export class PooledOptimizer implements GatewayOptimizer {
  readonly tokens: TokenCounter;
  /** The bytes behind each request the gateway parsed, so a worker parses them instead. */
  private readonly sources = new WeakMap<ChatRequest, RequestSource>();
  /** Catalog loads sent to the pool: the next optimization waits for them (it reads the pins). */
  private pinWrites: Promise<unknown> = Promise.resolve();

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
        await this.pinWrites;
        const source = this.sourceOf(request);
        return (await pool.run({ type: 'optimize', body: source.bytes, format: source.format, tenant, ...(targetKind ? { targetKind } : {}), ...(firstMarkerRisk !== undefined ? { firstMarkerRisk } : {}) }, { bytes: source.bytes.byteLength, deadlineMs, signal })) as PipelineResult;
      },
      loadTools: (sessionId, names) => {
        // In the middle of a turn: the answer waits on it.
        const written = pool.run({ type: 'loadTools', sessionId, names, tenant }, { bytes: 0, deadlineMs, first: true }).then(() => undefined);
        this.pinWrites = written.catch(() => undefined);
        return written;
      },
      afterResponse: async (request, answer, sessionId) => {
        const source = this.sourceOf(request);
        // The client's answer ends once this is stored: it goes ahead of the optimizations waiting.
        await pool.run({ type: 'afterResponse', body: source.bytes, format: source.format, tenant, answer, sessionId }, { bytes: source.bytes.byteLength, deadlineMs, first: true });
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
