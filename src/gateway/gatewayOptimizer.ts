/**
 * What the gateway asks of the optimizer (`herald serve` builds a `TenantOptimizer`, in its
 * process or in each worker of an `OptimizerPool`). Every request is answered by its tenant's
 * view ({@link TenantScope}): a pipeline whose stash is the tenant's own namespace of the shared
 * blob store (with handles of its own key), whose decided history is keyed under the tenant,
 * whose pins live under session ids that carry the tenant, and whose cached answers are scoped
 * to it. So two people behind one gateway share nothing: a handle quoted from another tenant is
 * unknown, a message another tenant decided is decided afresh, a cached answer is never served
 * across. An anonymous request (no credential) gets a view of its own that lives for that
 * request only.
 */
import { createHmac } from 'node:crypto';
import type { RequestFormat } from '../core/chat';
import type { ChatRequest } from '../core/chat/types';
import type { PipelineResult, RunOptions } from '../core/pipeline/pipeline';
import type { TargetKind } from '../core/pipeline/types';
import type { TokenCounter } from '../core/tokens/tokenCounter';
import type { Tenant } from './tenants';

/** The optimizer as one tenant sees it, for one request. */
export interface TenantScope {
  /**
   * Runs the pipeline; undefined when the optimizer is off (requests go out untouched).
   * `targetKind` and `firstMarkerRisk` as the flow gives them; `deferWrites` as the pipeline
   * takes it (a pool's worker writes the run's memo and pins after it answered).
   */
  readonly optimize: ((request: ChatRequest, signal: AbortSignal, targetKind?: TargetKind, firstMarkerRisk?: number, deferWrites?: RunOptions['deferWrites']) => Promise<PipelineResult>) | undefined;
  /** Records tools the catalog loaded inside a turn of a session (the flow's `loadTools`); the next optimize sees them. */
  loadTools?(sessionId: string, names: readonly string[]): void | Promise<void>;
  afterResponse(request: ChatRequest, answer: unknown, sessionId: string): Promise<void>;
  /** The original behind one of this tenant's handles; undefined for any other handle. */
  retrieve(handle: string): Promise<string | undefined>;
}

export interface GatewayOptimizer {
  readonly tokens: TokenCounter;
  /** The tenant's view, for one request. */
  forTenant(tenant: Tenant): TenantScope;
  /** Told the bytes a request was parsed from, before the flow runs (a worker pool parses those instead). */
  remember?(request: ChatRequest, source: { readonly bytes: Uint8Array; readonly format: RequestFormat }): void;
}

/** The stash key of a tenant: derived from the install's key, so handles differ between tenants and agree between replicas sharing the key. */
export function tenantStashKey(key: Uint8Array, tenant: Tenant): Uint8Array {
  return createHmac('sha256', key).update(`herald-tenant-stash\u0000${tenant.anonymous ? 'anonymous' : tenant.id}`, 'utf8').digest();
}

/** The namespace of a tenant's entries in the shared blob store. */
export function tenantNamespace(tenant: Tenant): string {
  return `t-${tenant.id}`;
}
