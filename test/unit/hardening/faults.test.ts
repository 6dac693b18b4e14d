/**
 * Faults inside a pipeline run: a strategy that hangs or returns an invalid request, a stash
 * that cannot be written, cancellation at every stage, and two runs at once on one stash and
 * memo. Each ends in a usable request that expands back to the original and a decision or log
 * line that says what happened. Requests come from a real agent trajectory.
 */
import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest, type ChatRequest } from '../../../src/core/chat';
import { MessageMemo, Pipeline, type Strategy } from '../../../src/core/pipeline';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore, Stash, type BlobStore } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens';
import { expandsBack } from '../../support/replay';
import { loadTrajectory, skipWithoutData, trajectoryNames, turnRequests } from '../../support/sharedData';
import { partShape } from './requestShape';

const tokens = new TokenCounter(20_000);

/** A late turn of a real trajectory: enough history for every history strategy to act on. */
function realRequest(which = 0, turnFromEnd = 1): ChatRequest {
  const turns = turnRequests(loadTrajectory(trajectoryNames()[which]!));
  return parseRequest(turns[Math.max(0, turns.length - turnFromEnd)]);
}

function memoryStash(store: BlobStore = new MemoryBlobStore()): Stash {
  return new Stash({ store, key: new Uint8Array(32).fill(7) });
}

/** Wraps a strategy so a hook runs just before it (to cancel at exactly that stage). */
function withHook(strategy: Strategy, before: () => void): Strategy {
  return {
    id: strategy.id,
    defaultEnabled: strategy.defaultEnabled,
    kind: strategy.kind,
    touchesFresh: strategy.touchesFresh,
    rewritesFrozen: strategy.rewritesFrozen,
    defaults: strategy.defaults,
    apply: (request, context) => {
      before();
      return strategy.apply(request, context);
    },
  };
}

function hanging(id: string): Strategy {
  return { id, defaultEnabled: true, apply: () => new Promise<never>(() => undefined) };
}

async function assertUsable(original: ChatRequest, optimized: ChatRequest, stash: Stash): Promise<void> {
  assert.deepEqual(partShape(optimized), partShape(original), 'every message and part in place');
  assert.ok(await expandsBack(original, optimized, stash), 'every marker expands back to the original');
}

describe('hardening: faults in a pipeline run', function () {
  this.timeout(60_000);
  before(function () {
    skipWithoutData(this);
  });

  it('a strategy that never resolves is cut off at its time limit and the rest still run', async () => {
    const stash = memoryStash();
    const logger = new RecordingLogger();
    const strategies = createStrategies();
    strategies.splice(3, 0, hanging('never_settles'));
    const pipeline = new Pipeline(strategies, { timeLimitMs: 150 }, { stash, tokens, logger });
    const request = realRequest();
    const result = await pipeline.run(request);
    const hung = result.decisions.find((decision) => decision.strategy === 'never_settles')!;
    assert.equal(hung.status, 'timeout');
    assert.match(hung.reason, /longer than 150 ms/);
    assert.ok(logger.lines.some((line) => line.code === 'strategy-timed-out'));
    const after = result.decisions.slice(result.decisions.indexOf(hung) + 1);
    assert.ok(after.length > 5 && after.every((decision) => decision.status !== 'skipped'), 'later strategies ran');
    await assertUsable(request, result.request, stash);
  });

  const invalid: [string, (request: ChatRequest) => unknown, RegExp][] = [
    ['undefined', () => undefined, /not a request/],
    ['a string', () => 'optimized!', /not a request/],
    ['messages that are not a list', (request) => ({ ...request, messages: {} }), /not a request/],
    ['a dropped message', (request) => ({ ...request, messages: request.messages.slice(1) }), /message count/],
    ['an added part', (request) => ({ ...request, messages: request.messages.map((message, index) => (index === 2 ? { ...message, parts: [...message.parts, { type: 'text', text: 'extra' }] } : message)) }), /number of parts/],
    ['a changed role', (request) => ({ ...request, messages: request.messages.map((message, index) => (index === 2 ? { ...message, role: 'system' } : message)) }), /role|protected/],
    ['a rewritten fresh message', (request) => ({ ...request, messages: request.messages.map((message, index) => (index === request.messages.length - 1 ? { ...message, parts: [{ type: 'text', text: 'obey me' }] } : message)) }), /protected/],
  ];
  for (const [name, build, reason] of invalid) {
    it(`a strategy returning ${name} is rejected, the request left as it was`, async () => {
      const stash = memoryStash();
      const logger = new RecordingLogger();
      const broken: Strategy = { id: 'broken', defaultEnabled: true, apply: (request) => ({ request: build(request) as ChatRequest, action: 'request-broken', reason: 'test' }) };
      const strategies = createStrategies();
      strategies.splice(5, 0, broken);
      const request = realRequest();
      const result = await new Pipeline(strategies, {}, { stash, tokens, logger }).run(request);
      const decision = result.decisions.find((candidate) => candidate.strategy === 'broken')!;
      assert.equal(decision.status, 'rejected');
      assert.match(decision.reason, reason);
      assert.equal(decision.tokensAfter, decision.tokensBefore);
      assert.ok(logger.lines.some((line) => line.code === 'strategy-result-rejected'));
      await assertUsable(request, result.request, stash);
    });
  }

  it('a tool call id swapped in history is rejected', async () => {
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'task' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a1', type: 'function', function: { name: 'bash', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'a1', content: 'out' },
        { role: 'assistant', content: 'done' },
        { role: 'user', content: 'next' },
      ],
    };
    const swap: Strategy = {
      id: 'swap_ids',
      defaultEnabled: true,
      apply: (request) => ({
        request: { ...request, messages: request.messages.map((message) => ({ ...message, parts: message.parts.map((part) => (part.type === 'tool_result' ? { ...part, callId: 'b9' } : part)) })) },
        action: 'ids-swapped',
        reason: 'test',
      }),
    };
    const result = await new Pipeline([swap], {}, { stash: memoryStash(), tokens }).run(parseRequest(body));
    assert.equal(result.decisions[0]!.status, 'rejected');
    assert.match(result.decisions[0]!.reason, /tool result/);
    assert.deepEqual(serializeRequest(result.request), body);
  });

  it('a stash that is full sends the request as it arrived, says so, and memoizes nothing', async () => {
    const full: BlobStore = Object.assign(new MemoryBlobStore(), {
      put: async () => {
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
    });
    const problems: string[] = [];
    const stash = new Stash({ store: full, key: new Uint8Array(32), onProblem: (code) => void problems.push(code) });
    const logger = new RecordingLogger();
    const memo = new MessageMemo();
    const request = realRequest();
    const pipeline = new Pipeline(createStrategies(), {}, { stash, tokens, logger, memo });
    const result = await pipeline.run(request);
    assert.ok(result.decisions.some((decision) => decision.handles.length > 0), 'something was elided (so the write mattered)');
    assert.ok(problems.includes('stash-write-failed'));
    assert.match(result.restored ?? '', /^stash-write-failed/);
    assert.ok(logger.lines.some((line) => line.code === 'stash-write-failed-request-restored'));
    assert.equal(result.request, request, 'the request goes out as it arrived');
    assert.equal(memo.size, 0, 'no history decision was frozen');
  });

  it('a stash whose cap is smaller than what was elided keeps nothing it cannot hold, and the request goes out as it arrived', async () => {
    const problems: string[] = [];
    const store = new MemoryBlobStore();
    const stash = new Stash({ store, key: new Uint8Array(32), maxBytes: 2_000, onProblem: (code) => void problems.push(code) });
    const request = realRequest();
    const result = await new Pipeline(createStrategies(), {}, { stash, tokens }).run(request);
    assert.ok(problems.includes('stash-full'));
    assert.match(result.restored ?? '', /^stash-write-failed/);
    assert.equal(result.request, request);
    const kept = await store.list();
    assert.ok(kept.reduce((sum, info) => sum + info.size, 0) <= 2_000, 'the cap holds');
  });

  it('cancellation before the run, and before each strategy, ends in a usable request and memoizes nothing', async () => {
    const request = realRequest(1);
    const ids = createStrategies().filter((strategy) => strategy.defaultEnabled).map((strategy) => strategy.id);
    for (let stage = 0; stage <= ids.length; stage++) {
      const stash = memoryStash();
      const memo = new MessageMemo();
      const controller = new AbortController();
      if (stage === 0) controller.abort();
      const strategies = createStrategies().map((strategy) => (strategy.id === ids[stage - 1] ? withHook(strategy, () => controller.abort()) : strategy));
      const result = await new Pipeline(strategies, {}, { stash, tokens, memo }).run(request, { signal: controller.signal });
      const cancelled = result.decisions.filter((decision) => decision.action === 'request-cancelled').map((decision) => decision.strategy);
      assert.deepEqual(cancelled, ids.slice(Math.max(0, stage - 1)), `stage ${stage}: every strategy from the cancelled one on is skipped`);
      assert.equal(memo.size, 0, `stage ${stage}: nothing memoized`);
      await assertUsable(request, result.request, stash);
    }
  });

  it('cancellation while a strategy hangs ends the run at once, not at the time limit', async () => {
    const controller = new AbortController();
    const strategies = createStrategies();
    strategies.splice(4, 0, withHook(hanging('never_settles'), () => setTimeout(() => controller.abort(), 20)));
    const stash = memoryStash();
    const request = realRequest();
    const started = performance.now();
    const result = await new Pipeline(strategies, { timeLimitMs: 30_000 }, { stash, tokens }).run(request, { signal: controller.signal });
    assert.ok(performance.now() - started < 10_000, 'did not wait for the 30 s limit');
    const hung = result.decisions.find((decision) => decision.strategy === 'never_settles')!;
    assert.equal(hung.action, 'request-cancelled');
    await assertUsable(request, result.request, stash);
  });

  it('two pipelines optimizing at once on one stash and memo both give valid, lossless results', async () => {
    const store = new MemoryBlobStore();
    const stash = memoryStash(store);
    const memo = new MessageMemo();
    const first = new Pipeline(createStrategies(), {}, { stash, tokens, memo });
    const second = new Pipeline(createStrategies(), {}, { stash, tokens, memo });
    const requests = [realRequest(0), realRequest(1), realRequest(0, 3), realRequest(0)];
    const results = await Promise.all(requests.map((request, index) => (index % 2 === 0 ? first : second).run(request)));
    // A fresh stash object on the same store: only what was written counts.
    const reader = memoryStash(store);
    for (const [index, result] of results.entries()) await assertUsable(requests[index]!, result.request, reader);
    // The same request run twice at once comes out the same, and a later run replays it.
    assert.equal(JSON.stringify(results[3]!.request), JSON.stringify(results[0]!.request));
    const again = await first.run(requests[0]!);
    assert.equal(JSON.stringify(again.request), JSON.stringify(results[0]!.request));
    assert.ok(again.replayedMessages > 0);
  });
});
