/** What the gateway's process and its optimizer workers say to each other (structured-cloned). */
import type { RequestFormat } from '../core/chat';
import type { PipelineConfig } from '../core/pipeline/pipeline';
import type { TargetKind } from '../core/pipeline/types';
import type { StoreLimitsSpec, StoreSpec } from './gatewayStores';
import type { Tenant } from './tenants';

/** How each worker builds its optimizer: plain data. */
export interface WorkerSetup {
  readonly store: StoreSpec;
  readonly limits?: StoreLimitsSpec;
  /** The key handles and tenants derive from (the gateway read or made it). */
  readonly key: Uint8Array;
  readonly config: PipelineConfig;
  /** The build's folder (`dist/`) with the wasm files and models; absent from source. */
  readonly assetsFolder?: string;
  readonly embeddingModelDir?: string;
  /** A sample request each worker runs through a throwaway pipeline before it says it is ready (see warmUp.ts). */
  readonly warmUpBody?: Record<string, unknown>;
}

/** A request's body as the client sent it, parsed in the worker. */
interface BodyTask {
  readonly id: number;
  readonly body: Uint8Array;
  readonly format: RequestFormat;
  /** Whose request (plain data: the worker builds the tenant's view as the gateway's process would). */
  readonly tenant: Tenant;
}

export type PoolTask =
  | (BodyTask & { readonly type: 'optimize'; readonly targetKind?: TargetKind; readonly firstMarkerRisk?: number })
  | (BodyTask & { readonly type: 'afterResponse'; readonly answer: unknown; readonly sessionId: string })
  | { readonly type: 'loadTools'; readonly id: number; readonly sessionId: string; readonly names: readonly string[]; readonly tenant: Tenant };

/**
 * A task's answer. `writing` says the worker goes on to write what the task left for the store
 * (an optimization's memo and pins) and will say `written` when done: until then it takes no
 * task, and the pool holds back the next task of the same session.
 */
export type TaskAnswer = { readonly type: 'answer'; readonly id: number; readonly writing?: true } & ({ readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string });

export type WorkerMessage =
  | TaskAnswer
  | { readonly type: 'ready' }
  /** The worker's own connection to a networked store (Redis) came up or went down. */
  | { readonly type: 'store'; readonly up: boolean }
  | { readonly type: 'failed'; readonly error: string }
  /** The writes a `writing` answer announced are done; `error` when they failed. */
  | { readonly type: 'written'; readonly id: number; readonly error?: string }
  | { readonly type: 'log'; readonly level: 'info' | 'warn' | 'error'; readonly code: string; readonly message: string };
