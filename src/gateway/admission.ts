/**
 * What the gateway takes in: a budget for the request bodies it holds at once (a body is held
 * from its first byte until its answer ends, parsed several times over in memory) and a bound
 * on the optimizations waiting for a worker. A request past either is refused at once in its
 * API's own error shape with `retry-after`, before its body is read: 503 when the bodies held
 * would pass the memory budget (the gateway is full), 429 when the queue is full (the client
 * should slow down). Clients (Claude Code, Codex, the OpenAI and Anthropic SDKs) retry both.
 */
import type { PoolStats } from './optimizerPool';

export interface AdmissionOptions {
  /** Bytes of request bodies held at once. */
  readonly maxBodyBytes: number;
  /** Optimizations waiting for a worker; past it a request gets 429. */
  readonly maxQueued: number;
  /** The pool's state now, when there is one. */
  readonly pool?: () => PoolStats;
}

export type AdmissionVerdict =
  | { readonly admitted: true; release(): void }
  | { readonly admitted: false; readonly status: 429 | 503; readonly retryAfterSeconds: number; readonly message: string; readonly reason: 'queue-full' | 'body-memory-full' };

export class Admission {
  private heldBytes = 0;
  private held = 0;
  private readonly refused = { 'queue-full': 0, 'body-memory-full': 0 };

  constructor(readonly options: AdmissionOptions) {}

  /** Whether a request whose body is `bytes` long may come in; release the ticket when its answer ends. */
  admit(bytes: number): AdmissionVerdict {
    const pool = this.options.pool?.();
    if (pool && pool.queued >= this.options.maxQueued) {
      this.refused['queue-full']++;
      return { admitted: false, status: 429, reason: 'queue-full', retryAfterSeconds: 1, message: `Herald: the gateway has ${pool.queued} requests waiting to be optimized (its limit, herald serve --max-queue); retry shortly` };
    }
    if (this.held > 0 && this.heldBytes + bytes > this.options.maxBodyBytes) {
      this.refused['body-memory-full']++;
      return { admitted: false, status: 503, reason: 'body-memory-full', retryAfterSeconds: 2, message: `Herald: the gateway holds ${Math.round(this.heldBytes / 1048576)} MB of requests in flight and this one would pass its budget of ${Math.round(this.options.maxBodyBytes / 1048576)} MB (herald serve --max-body-memory-mb); retry shortly` };
    }
    this.heldBytes += bytes;
    this.held++;
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        this.heldBytes -= bytes;
        this.held--;
      },
    };
  }

  stats(): { readonly heldBytes: number; readonly held: number; readonly refused: Readonly<Record<'queue-full' | 'body-memory-full', number>> } {
    return { heldBytes: this.heldBytes, held: this.held, refused: { ...this.refused } };
  }
}
