/**
 * What the pooled optimizer asks of its pool (a recording stand-in): every task names its
 * session, as the worker that runs it names it, so the pool keeps a session's tasks in order;
 * an answer is stored without holding the client, and a failure to store it is logged.
 */
import { strict as assert } from 'node:assert';
import { parseRequest } from '../../../src/core/chat';
import { sessionIdOf } from '../../../src/core/pipeline/pipeline';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import type { OptimizerPool } from '../../../src/gateway/optimizerPool';
import type { PoolTask } from '../../../src/gateway/poolProtocol';
import { PooledOptimizer } from '../../../src/gateway/pooledOptimizer';

const TENANT = { id: 'c3d4', anonymous: false };
const BODY = { model: 'claude-sonnet-4-5', max_tokens: 50, system: 'You are terse.', messages: [{ role: 'user', content: 'Why is the build red?' }, { role: 'assistant', content: 'Checking.' }, { role: 'user', content: 'And now?' }] };

interface Asked {
  readonly task: PoolTask;
  readonly options: { key?: string; first?: boolean };
  settle(error?: Error): void;
}

/** A pool that records each task and the options it was given, and settles each only when told. */
function recordingPool(): { pool: OptimizerPool; asked: Asked[] } {
  const asked: Asked[] = [];
  const pool = {
    run: (task: PoolTask, options: { key?: string; first?: boolean }) => new Promise((resolve, reject) => {
      asked.push({ task, options, settle: (error) => (error ? reject(error) : resolve({ request: parseRequest(BODY, 'anthropic'), sessionId: `${TENANT.id}:x` })) });
    }),
  } as unknown as OptimizerPool;
  return { pool, asked };
}

describe('gateway: the pooled optimizer\'s tasks', () => {
  it('names the session of every task as the worker does, so the pool runs them in order', async () => {
    const { pool, asked } = recordingPool();
    const pooled = new PooledOptimizer({ pool, tokens: new TokenCounter(), stashStore: new MemoryBlobStore(), stashKey: new Uint8Array(32), deadlineMs: 1000 });
    const request = parseRequest(BODY, 'anthropic');
    pooled.remember(request, { bytes: Buffer.from(JSON.stringify(BODY)), format: 'anthropic' });
    const scope = pooled.forTenant(TENANT);
    const optimized = scope.optimize!(request, new AbortController().signal);
    // The worker parses the same bytes and names the session `${tenant}:${sessionIdOf(request)}` (TenantOptimizer).
    const session = `${TENANT.id}:${sessionIdOf(parseRequest(JSON.parse(JSON.stringify(BODY)), 'anthropic'))}`;
    assert.equal(asked[0]!.options.key, session);
    asked[0]!.settle();
    await optimized;
    const loaded = scope.loadTools!(session, ['Read']);
    assert.deepEqual([asked[1]!.task.type, asked[1]!.options.key, asked[1]!.options.first], ['loadTools', session, true]);
    asked[1]!.settle();
    await loaded;
    await scope.afterResponse(request, { herald: 'answer', chunks: [] }, session);
    assert.deepEqual([asked[2]!.task.type, asked[2]!.options.key], ['afterResponse', session]);
  });

  it('stores an answer without holding the client, and logs a store that failed', async () => {
    const { pool, asked } = recordingPool();
    const warnings: string[] = [];
    const pooled = new PooledOptimizer({ pool, tokens: new TokenCounter(), stashStore: new MemoryBlobStore(), stashKey: new Uint8Array(32), deadlineMs: 1000, logger: { info: () => undefined, warn: (code, message) => warnings.push(`${code}: ${message}`), error: () => undefined } });
    const request = parseRequest(BODY, 'anthropic');
    pooled.remember(request, { bytes: Buffer.from(JSON.stringify(BODY)), format: 'anthropic' });
    // Resolves while the pool's task is still unsettled.
    await pooled.forTenant(TENANT).afterResponse(request, { herald: 'answer', chunks: [] }, 's');
    assert.equal(asked.length, 1);
    asked[0]!.settle(new Error('Herald: optimizing took longer than the 1000 ms deadline'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /^after-response-failed: .*1000 ms deadline.*the client had it already/);
  });
});
