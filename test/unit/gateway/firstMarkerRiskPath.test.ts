/** The rate the flow measured reaches the pipeline on both of the gateway's optimizers: in process and through the worker pool. */
import { strict as assert } from 'node:assert';
import type { ChatMessage, ChatRequest } from '../../../src/core/chat/types';
import { MessageMemo } from '../../../src/core/pipeline/messageMemo';
import { SessionStateStore } from '../../../src/core/pipeline/sessionState';
import { silentLogger } from '../../../src/core/ports';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { createStrategies } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import type { OptimizerPool } from '../../../src/gateway/optimizerPool';
import type { PoolTask } from '../../../src/gateway/poolProtocol';
import { PooledOptimizer } from '../../../src/gateway/pooledOptimizer';
import { TenantOptimizer } from '../../../src/gateway/tenantOptimizer';

const TENANT = { id: 'a1b2', anonymous: false };
const text = (role: ChatMessage['role'], value: string): ChatMessage => ({ role, parts: [{ type: 'text', text: value }], contentShape: 'parts' });
const log = Array.from({ length: 120 }, (_, index) => (index === 60 ? "src/app.ts(60,7): error TS2322: Type 'string' is not assignable to type 'number'." : `[${String(index).padStart(5, '0')}] compiling module_${index % 37}.ts ... ok`)).join('\n');
const TOOLS = [
  { name: 'Bash', description: 'Runs a shell command.', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
  ...Array.from({ length: 30 }, (_, index) => ({ name: `tool_${index}`, description: Array.from({ length: 12 }, (__, line) => `Use tool_${index} to inspect resource kind ${line} of the workspace; pass the path and an optional filter expression.`).join(' '), inputSchema: { type: 'object', properties: { path: { type: 'string' } } } })),
];
const REQUEST: ChatRequest = {
  format: 'anthropic',
  messages: [
    text('user', 'Which modules does the build compile?'),
    { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'cat build.log' } }], contentShape: 'parts' },
    { role: 'user', parts: [{ type: 'tool_result', callId: 'c1', content: [{ type: 'text', text: log }], contentShape: 'parts' }], contentShape: 'parts' },
  ],
  tools: TOOLS,
  options: {},
};

describe('the first-marker rate through the gateway\'s optimizers', () => {
  it('in process: a rate of 1 keeps a short session\'s log whole, a measured 1 in 10 digests it', async () => {
    const optimizer = (): TenantOptimizer => new TenantOptimizer({ strategies: createStrategies(), config: { firstMarkerRound: true }, stashStore: new MemoryBlobStore(), stashKey: new Uint8Array(32), memo: new MessageMemo(), state: new SessionStateStore(), tokens: new TokenCounter(), logger: silentLogger });
    const signal = new AbortController().signal;
    const cautious = await optimizer().forTenant(TENANT).optimize!(REQUEST, signal, 'endpoint', 1);
    assert.equal(cautious.elisions.length, 0);
    const measured = await optimizer().forTenant(TENANT).optimize!(REQUEST, signal, 'endpoint', 0.1);
    assert.ok(measured.elisions.length > 0);
  });

  it('through the pool: the task a worker gets carries the rate', async () => {
    const tasks: PoolTask[] = [];
    const pool = { run: async (task: PoolTask) => { tasks.push(task); return { request: REQUEST }; } } as unknown as OptimizerPool;
    const pooled = new PooledOptimizer({ pool, tokens: new TokenCounter(), stashStore: new MemoryBlobStore(), stashKey: new Uint8Array(32), deadlineMs: 1000 });
    pooled.remember(REQUEST, { bytes: new TextEncoder().encode('{}'), format: 'anthropic' });
    await pooled.forTenant(TENANT).optimize!(REQUEST, new AbortController().signal, 'endpoint', 0.25);
    assert.equal(tasks[0]?.type, 'optimize');
    assert.equal((tasks[0] as Extract<PoolTask, { type: 'optimize' }>).firstMarkerRisk, 0.25);
  });
});
