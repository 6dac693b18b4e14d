/**
 * What the gateway asks of the optimizer (`herald serve` builds a `TenantOptimizer`, in its
 * process or in each worker of an `OptimizerPool`), and the tenant of a request.
 */
import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestFormat } from '../core/chat';
import type { ChatRequest } from '../core/chat/types';
import type { PipelineResult } from '../core/pipeline/pipeline';
import type { TargetKind } from '../core/pipeline/types';
import type { TokenCounter } from '../core/tokens/tokenCounter';

export interface GatewayOptimizer {
  readonly tokens: TokenCounter;
  /** Runs the pipeline; undefined when the optimizer is off (requests go out untouched). `targetKind` as the flow gives it. */
  readonly optimize: ((request: ChatRequest, tenant: string, signal: AbortSignal, targetKind?: TargetKind) => Promise<PipelineResult>) | undefined;
  /** Records tools the catalog loaded inside a turn of a session (the flow's `loadTools`); the next optimize sees them. */
  loadTools?(sessionId: string, names: readonly string[]): void | Promise<void>;
  afterResponse(request: ChatRequest, answer: unknown, sessionId: string, tenant: string): Promise<void>;
  retrieve(handle: string): Promise<string | undefined>;
  /** Told the bytes a request was parsed from, before the flow runs (a worker pool parses those instead). */
  remember?(request: ChatRequest, source: { readonly bytes: Uint8Array; readonly format: RequestFormat }): void;
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
