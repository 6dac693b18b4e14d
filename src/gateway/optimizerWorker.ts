/**
 * One worker of the gateway's optimizer pool (bundled as `dist/gateway-worker.js`): builds the
 * tenant optimizer over the gateway's store (its own connection or files) and answers the
 * tasks the pool hands it, one at a time. The gateway's event loop only moves bytes; the
 * parsing and the pipeline run here. See `optimizerPool.ts` for the protocol.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parseRequest } from '../core/chat';
import { describeError } from '../core/errors';
import type { Logger } from '../core/ports';
import { createStrategies } from '../core/strategies';
import { bundledEnvironment } from '../core/strategies/environment';
import { TokenCounter } from '../core/tokens/tokenCounter';
import { openGatewayStores } from './gatewayStores';
import type { PoolTask, TaskAnswer, WorkerMessage, WorkerSetup } from './poolProtocol';
import { TenantOptimizer } from './tenantOptimizer';
import { warmUp } from '../core/pipeline/warmUp';

const port = parentPort!;
const setup = workerData as WorkerSetup;

const logger: Logger = {
  info: (code, message) => port.postMessage({ type: 'log', level: 'info', code, message } satisfies WorkerMessage),
  warn: (code, message) => port.postMessage({ type: 'log', level: 'warn', code, message } satisfies WorkerMessage),
  error: (code, message) => port.postMessage({ type: 'log', level: 'error', code, message } satisfies WorkerMessage),
};

async function start(): Promise<TenantOptimizer> {
  const stores = await openGatewayStores(setup.store, { key: setup.key, limits: setup.limits, onProblem: (code, message) => logger.warn(code, message) });
  // The gateway's health counts the store up only while every worker's own connection is.
  const connection = stores.connection;
  if (connection) {
    connection.onConnection((up) => port.postMessage({ type: 'store', up } satisfies WorkerMessage));
    port.postMessage({ type: 'store', up: connection.connected() } satisfies WorkerMessage);
  }
  const strategies = createStrategies({
    logger,
    ...(setup.assetsFolder ? bundledEnvironment(setup.assetsFolder) : {}),
    ...(setup.embeddingModelDir ? { embeddingModelDir: setup.embeddingModelDir } : {}),
    responseCache: stores.responseCache,
  });
  const tokens = new TokenCounter();
  if (setup.warmUpBody) {
    const warmed = await warmUp(strategies, setup.config, tokens, setup.warmUpBody, 'endpoint');
    if (warmed.ok) logger.info('warmed-up', `Herald: an optimizer worker warmed up in ${Math.round(warmed.ms)} ms (a sample session, kept nowhere)`);
    else logger.warn('warm-up-failed', `Herald: an optimizer worker could not warm up (${warmed.error}); its first request loads what it needs`);
  }
  return new TenantOptimizer({ strategies, config: setup.config, stashStore: stores.stashStore, stashKey: stores.key, anonymousStashShared: true, memo: stores.memo, state: stores.state, responseCache: stores.responseCache, tokens, logger });
}

const ready = start();
ready.then(
  () => port.postMessage({ type: 'ready' } satisfies WorkerMessage),
  (error: unknown) => port.postMessage({ type: 'failed', error: describeError(error) } satisfies WorkerMessage),
);

port.on('message', (task: PoolTask) => {
  void answer(task).then(async ({ message, write }) => {
    // The request goes on its way first; the run's memo and pins are written after (see TaskAnswer).
    port.postMessage(write ? { ...message, writing: true } : message);
    if (!write) return;
    let error: string | undefined;
    try {
      await write();
    } catch (failure) {
      error = describeError(failure);
    }
    port.postMessage({ type: 'written', id: task.id, ...(error !== undefined ? { error } : {}) } satisfies WorkerMessage);
  });
});

async function answer(task: PoolTask): Promise<{ message: TaskAnswer; write?: () => Promise<void> }> {
  let write: (() => Promise<void>) | undefined;
  try {
    return { message: await run(task, (given) => (write = given)), ...(write ? { write } : {}) };
  } catch (error) {
    // A run that failed after it handed over its writes keeps nothing: its decisions are not written.
    return { message: { type: 'answer', id: task.id, ok: false, error: describeError(error) } };
  }
}

async function run(task: PoolTask, deferWrites: (write: () => Promise<void>) => void): Promise<TaskAnswer> {
  const optimizer = await ready;
  if (task.type === 'loadTools') {
    await optimizer.forTenant(task.tenant).loadTools!(task.sessionId, task.names);
    return { type: 'answer', id: task.id, ok: true, value: undefined };
  }
  const request = parseRequest(JSON.parse(Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength).toString('utf8')), task.format);
  if (task.type === 'afterResponse') {
    await optimizer.forTenant(task.tenant).afterResponse(request, task.answer, task.sessionId);
    return { type: 'answer', id: task.id, ok: true, value: undefined };
  }
  // The pool abandons a task by ending this worker, so nothing here waits on a signal.
  const result = await optimizer.forTenant(task.tenant).optimize!(request, new AbortController().signal, task.targetKind, task.firstMarkerRisk, deferWrites);
  return { type: 'answer', id: task.id, ok: true, value: result };
}
