/**
 * The gateway's optimizer pool: worker threads that parse and optimize requests while the
 * event loop only moves bytes, so no request waits behind another's pipeline and every core
 * is used. Any idle worker takes any task; waiting tasks go smallest body first (a small
 * request never waits behind a 5 MB one that arrived before it; a large one waits at most its
 * deadline), except that one session's tasks run one at a time in the order they came, each
 * after the store writes the one before left (a worker answers, then writes). A task not
 * answered by its deadline is abandoned: a waiting one is dropped, a running one's worker is
 * ended (synchronous work cannot be interrupted otherwise) and replaced, and the caller is
 * told, so the request goes out as it came. The caller is told at
 * the deadline; the worker is ended only if it is still busy with that task one more deadline
 * later: under load most late tasks were late from their wait in the queue and end soon after,
 * and a new worker costs seconds of CPU to start (issue 26: replacements were half the CPU of a
 * request under 50 sessions).
 *
 * node:worker_threads directly rather than piscina: the pool must end a worker on a deadline,
 * order its queue by size and bundle into dist/ as one named script beside cli.js and
 * extension.js; piscina does the first through an AbortSignal, but loads its own worker.js
 * from beside its code and the task module by a dynamic require, which a bundle has to
 * recreate. The protocol is in `poolProtocol.ts`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../core/ports';
import type { PoolTask, TaskAnswer, WorkerMessage, WorkerSetup } from './poolProtocol';

/** The worker script beside the bundle (`dist/gateway-worker.js`), or the source when running from it. */
export const WORKER_BUNDLE = 'gateway-worker.js';

export interface OptimizerPoolOptions {
  /** Workers; default the machine's cores. */
  readonly size: number;
  readonly setup: WorkerSetup;
  readonly logger: Logger;
  /** The worker script; default {@link defaultWorkerFile}. */
  readonly workerFile?: string;
  /** Each worker's young generation in MB; 0 leaves V8's own (48 MB). Default {@link defaultYoungGenerationMb} for this machine. */
  readonly youngGenerationMb?: number;
}

/**
 * A worker's young generation, in MB. A cold decision of a long conversation allocates tens of
 * MB that live for the decision and die with it; in V8's default young generation for a worker
 * (48 MB) they are copied and promoted by a collection or two each decision, and cost a
 * collection of the old generation later. With 128 MB they mostly die where they were made. Two
 * workers in one process, alternated decision by decision on the 100k-token conversation: 0.88
 * and 0.89 of the default's time (96 MB: 0.94 and 0.95; 192 MB: 0.87 to 0.88). The cost is
 * memory, once a worker has been that busy: about 90 MB more per worker (263 against 174 MB
 * of heap after a run of cold decisions).
 */
export const DEFAULT_WORKER_YOUNG_GENERATION_MB = 128;

/** V8's own young generation for a worker thread, in MB. */
const V8_WORKER_YOUNG_GENERATION_MB = 48;

/**
 * The young generation `size` workers get by default on a machine with `totalBytes` of memory:
 * {@link DEFAULT_WORKER_YOUNG_GENERATION_MB}, or less where the workers' young generations
 * together would take more than an eighth of the memory; 0 (V8's own) when that leaves less
 * than V8 gives a worker anyway.
 */
export function defaultYoungGenerationMb(size: number, totalBytes: number): number {
  const share = Math.floor(totalBytes / 8 / Math.max(1, size) / 1024 / 1024);
  const young = Math.min(DEFAULT_WORKER_YOUNG_GENERATION_MB, share);
  return young > V8_WORKER_YOUNG_GENERATION_MB ? young : 0;
}

/** A task abandoned at its deadline (the request goes out as it came). */
export class DeadlinePassed extends Error {}

/** The pool cannot take the task (closed, or its workers cannot start). */
export class PoolUnavailable extends Error {}

interface Pending {
  readonly task: PoolTask;
  readonly bytes: number;
  readonly deadlineAt: number;
  readonly deadlineMs: number;
  /** Goes ahead of every task without it (see {@link OptimizerPool.run}). */
  readonly first: boolean;
  /** The session it belongs to: its tasks run one at a time, in the order they came (see {@link OptimizerPool.run}). */
  readonly key?: string;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
  settled: boolean;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Being ended (its task passed the deadline): takes nothing more, replaced when it exits. */
  retiring?: boolean;
  /** The abandoned task it still runs (and its session), and when it is ended if it has not answered by then. */
  late?: { readonly id: number; readonly timer: NodeJS.Timeout; readonly key?: string };
  running?: Pending;
  /** The task it answered and still writes the store for (see `TaskAnswer.writing`); it takes nothing meanwhile. */
  writing?: { readonly id: number; readonly key?: string };
  /** Whether the worker's own connection to a networked store is up; undefined when it has none. */
  storeUp?: boolean;
}

export interface PoolStats {
  readonly workers: number;
  readonly busy: number;
  readonly queued: number;
  /** Bytes of request bodies waiting in the queue. */
  readonly queuedBytes: number;
  /** Tasks abandoned at their deadline since the start (queued or running). */
  readonly abandoned: number;
  /** Workers replaced (after a deadline or a crash) since the start. */
  readonly replaced: number;
  /** The young generation the workers run with, in MB, as their threads report it. */
  readonly youngGenerationMb?: number;
}

/** Where the worker script is: beside the running bundle, or the TypeScript source (tests, benches). */
export function defaultWorkerFile(folder = __dirname): string {
  const bundled = path.join(folder, WORKER_BUNDLE);
  if (fs.existsSync(bundled)) return bundled;
  return path.join(__dirname, 'optimizerWorker.ts');
}

export class OptimizerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  private abandoned = 0;
  private replaced = 0;
  /** Workers that ended before they were ever ready, in a row: past a few, the pool gives up. */
  private failedStarts = 0;
  private broken: string | undefined;
  private readonly workerFile: string;

  constructor(private readonly options: OptimizerPoolOptions) {
    this.workerFile = options.workerFile ?? defaultWorkerFile();
    for (let index = 0; index < Math.max(1, options.size); index++) this.slots.push(this.spawn());
  }

  /**
   * Runs a task on the first idle worker; rejects with {@link DeadlinePassed} when it is not
   * answered within `deadlineMs`, and with the worker's own error when it failed. A task with
   * `first` waits only behind others with it (in arrival order): a short task something waits
   * on, such as a catalog load inside a turn (the answer waits) or storing an answer (the
   * session's next turn waits; issue 26: behind the queue of optimizations it added tens of ms
   * to every answer under 50 sessions, when the answer still waited for it). Tasks with the
   * same `key` (a session) run one at a time in the order they came, each after the writes the
   * one before left (a worker answers an optimization before it writes the run's memo and pins;
   * the next turn must read them); tasks of other sessions go past one held back.
   */
  run(task: DistributiveOmit<PoolTask, 'id'>, options: { bytes: number; deadlineMs: number; signal?: AbortSignal; first?: boolean; key?: string }): Promise<unknown> {
    if (this.closed) return Promise.reject(new PoolUnavailable('Herald: the optimizer pool is closed'));
    if (this.broken) return Promise.reject(new PoolUnavailable(this.broken));
    return new Promise((resolve, reject) => {
      const first = options.first === true;
      const pending: Pending = { task: { ...task, id: this.nextId++ } as PoolTask, bytes: options.bytes, deadlineAt: Date.now() + options.deadlineMs, deadlineMs: options.deadlineMs, first, ...(options.key !== undefined ? { key: options.key } : {}), resolve, reject, settled: false };
      pending.timer = setTimeout(() => this.expire(pending), options.deadlineMs);
      options.signal?.addEventListener('abort', () => this.dropQueued(pending, new PoolUnavailable('Herald: the caller cancelled the request')), { once: true });
      // Tasks marked first in arrival order, then the others smallest body first (equal sizes in arrival order).
      let at = this.queue.length;
      while (at > 0 && (first ? !this.queue[at - 1]!.first : !this.queue[at - 1]!.first && this.queue[at - 1]!.bytes > pending.bytes)) at--;
      this.queue.splice(at, 0, pending);
      this.dispatch();
    });
  }

  stats(): PoolStats {
    return {
      workers: this.slots.length,
      busy: this.slots.filter((slot) => slot.running || slot.writing || slot.retiring).length,
      queued: this.queue.length,
      queuedBytes: this.queue.reduce((sum, pending) => sum + pending.bytes, 0),
      abandoned: this.abandoned,
      replaced: this.replaced,
      ...(this.slots[0]?.worker.resourceLimits?.maxYoungGenerationSizeMb !== undefined ? { youngGenerationMb: this.slots[0].worker.resourceLimits.maxYoungGenerationSizeMb } : {}),
    };
  }

  /** Workers whose own connection to the store (Redis) is down: their requests go out unoptimized. */
  workersWithoutStore(): number {
    return this.slots.filter((slot) => slot.storeUp === false && !slot.retiring).length;
  }

  /** Why the pool cannot work, when its workers cannot start. */
  problem(): string | undefined {
    return this.broken;
  }

  /** Waits until every worker is ready (or the pool gave up); for tests and start-up logs. */
  async ready(timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!this.broken && this.slots.some((slot) => !slot.ready)) {
      if (Date.now() > until) throw new Error('Herald: the optimizer workers did not start in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (this.broken) throw new Error(this.broken);
  }

  /**
   * Stops the pool. With `settleMs`, the tasks already queued or running and the writes after
   * them finish first, for up to that long (a stopping gateway keeps the answers it stored).
   */
  async close(settleMs = 0): Promise<void> {
    const until = Date.now() + settleMs;
    while (Date.now() < until && !this.broken && (this.queue.length > 0 || this.slots.some((slot) => slot.running || slot.writing))) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    this.closed = true;
    for (const pending of this.queue.splice(0)) this.settle(pending, undefined, new PoolUnavailable('Herald: the optimizer pool closed'));
    await Promise.all(this.slots.map(async (slot) => {
      if (slot.late) clearTimeout(slot.late.timer);
      if (slot.running) this.settle(slot.running, undefined, new PoolUnavailable('Herald: the optimizer pool closed'));
      await slot.worker.terminate();
    }));
  }

  private spawn(): Slot {
    const file = this.workerFile;
    // From source (tests, benches) the worker loads TypeScript through tsx, as the parent does.
    const young = this.options.youngGenerationMb ?? defaultYoungGenerationMb(this.options.size, os.totalmem());
    const resourceLimits = young > 0 ? { resourceLimits: { maxYoungGenerationSizeMb: young } } : {};
    const worker = file.endsWith('.ts')
      ? new Worker(`require(${JSON.stringify(path.resolve(__dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'cjs', 'index.cjs'))}); require(${JSON.stringify(file)});`, { eval: true, workerData: this.options.setup, ...resourceLimits })
      : new Worker(file, { workerData: this.options.setup, ...resourceLimits });
    const slot: Slot = { worker, ready: false };
    worker.on('message', (message: WorkerMessage) => this.onMessage(slot, message));
    worker.on('error', (error) => {
      this.options.logger.error('optimizer-worker-failed', `Herald: an optimizer worker failed: ${error.message}`);
    });
    worker.on('exit', () => this.onExit(slot));
    // A worker idle between tasks must not keep the gateway's process alive.
    worker.unref();
    return slot;
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if (message.type === 'log') {
      this.options.logger[message.level](message.code, message.message);
      return;
    }
    if (message.type === 'store') {
      slot.storeUp = message.up;
      return;
    }
    if (message.type === 'ready') {
      slot.ready = true;
      this.failedStarts = 0;
      this.dispatch();
      return;
    }
    if (message.type === 'failed') {
      this.options.logger.error('optimizer-worker-not-started', `Herald: an optimizer worker could not start: ${message.error}`);
      void slot.worker.terminate();
      return;
    }
    if (message.type === 'written') {
      if (message.error !== undefined) this.options.logger.warn('store-write-failed', `Herald: a request's decisions could not be written to the store (${message.error.replace(/^Herald: /, '')}); it went out optimized, and its session's next turn decides that history again`);
      if (slot.writing?.id !== message.id) return;
      slot.writing = undefined;
      this.dispatch();
      return;
    }
    if (slot.late && slot.late.id === message.id) {
      // The abandoned task ended within its grace: the worker takes tasks again (once it wrote
      // what it left), and its session's next task waits for those writes, as after any answer.
      const { key } = slot.late;
      clearTimeout(slot.late.timer);
      slot.late = undefined;
      slot.retiring = false;
      if (message.writing) slot.writing = { id: message.id, ...(key !== undefined ? { key } : {}) };
      this.dispatch();
      return;
    }
    const running = slot.running;
    if (!running || running.task.id !== message.id) return;
    slot.running = undefined;
    if (message.writing) slot.writing = { id: message.id, ...(running.key !== undefined ? { key: running.key } : {}) };
    this.answer(running, message);
    this.dispatch();
  }

  private answer(pending: Pending, message: TaskAnswer): void {
    if (message.ok) this.settle(pending, message.value);
    else this.settle(pending, undefined, new Error(message.error));
  }

  private onExit(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    if (slot.late) clearTimeout(slot.late.timer);
    if (slot.running) this.settle(slot.running, undefined, new Error('Herald: the optimizer worker running this request stopped'));
    if (this.closed) return;
    if (!slot.ready && !slot.retiring) this.failedStarts++;
    if (this.failedStarts >= 3) {
      this.broken = `Herald: the optimizer workers cannot start (${this.workerFile}); requests go out unoptimized`;
      this.options.logger.error('optimizer-pool-broken', this.broken);
      this.slots.splice(index, 1);
      for (const pending of this.queue.splice(0)) this.settle(pending, undefined, new PoolUnavailable(this.broken));
      return;
    }
    this.replaced++;
    this.slots[index] = this.spawn();
    // A session held back behind what the ended worker ran or wrote may go on elsewhere.
    this.dispatch();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.retiring || slot.running || slot.writing) continue;
      const at = this.nextRunnable();
      if (at < 0) return;
      const pending = this.queue.splice(at, 1)[0]!;
      slot.running = pending;
      slot.worker.postMessage(pending.task);
    }
  }

  /**
   * The first queued task whose session has nothing running, being written or queued before it
   * (its earliest task by arrival: ids rise as tasks come); -1 when every one waits.
   */
  private nextRunnable(): number {
    const busy = new Set<string>();
    for (const slot of this.slots) {
      if (slot.running?.key !== undefined) busy.add(slot.running.key);
      if (slot.writing?.key !== undefined) busy.add(slot.writing.key);
    }
    const earliest = new Map<string, number>();
    for (const pending of this.queue) {
      if (pending.key === undefined) continue;
      const known = earliest.get(pending.key);
      if (known === undefined || pending.task.id < known) earliest.set(pending.key, pending.task.id);
    }
    return this.queue.findIndex((pending) => pending.key === undefined || (!busy.has(pending.key) && earliest.get(pending.key) === pending.task.id));
  }

  /** The deadline passed: a waiting task is dropped, a running one's worker ended and replaced. */
  private expire(pending: Pending): void {
    if (pending.settled) return;
    this.abandoned++;
    const error = new DeadlinePassed(`Herald: optimizing took longer than the ${pending.deadlineMs} ms deadline; the request went out as it came (herald serve --deadline-ms)`);
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(pending, undefined, error);
      return;
    }
    const slot = this.slots.find((candidate) => candidate.running === pending);
    this.settle(pending, undefined, error);
    if (slot) {
      slot.running = undefined;
      slot.retiring = true;
      // Still busy one more deadline later: only ending the thread stops it.
      const timer = setTimeout(() => this.end(slot), pending.deadlineMs);
      timer.unref();
      slot.late = { id: pending.task.id, timer, ...(pending.key !== undefined ? { key: pending.key } : {}) };
    }
  }

  /** Ends a worker whose abandoned task ran past its grace; its exit replaces it (onExit), and nothing it still sends is read. */
  private end(slot: Slot): void {
    slot.late = undefined;
    slot.worker.removeAllListeners('message');
    void slot.worker.terminate();
  }

  private dropQueued(pending: Pending, error: Error): void {
    const queued = this.queue.indexOf(pending);
    if (queued < 0) return;
    this.queue.splice(queued, 1);
    this.settle(pending, undefined, error);
  }

  private settle(pending: Pending, value: unknown, error?: Error): void {
    if (pending.settled) return;
    pending.settled = true;
    if (pending.timer) clearTimeout(pending.timer);
    if (error) pending.reject(error);
    else pending.resolve(value);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
