import { strict as assert } from 'node:assert';
import type { ChatRequest } from '../../../src/core/chat/types';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { createSemanticCache } from '../../../src/core/strategies/semanticCache';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import type { ResponseChunk } from '../../../src/core/flow/forwardTarget';
import { cachedAnswerOf, runRequestFlow, type RequestFlowInput } from '../../../src/core/flow/requestFlow';
import { FakeTarget, type Script } from './fakeTarget';

function question(text: string): ChatRequest {
  return { format: 'vscode', messages: [{ role: 'user', parts: [{ type: 'text', text }], contentShape: 'parts' }], tools: [], options: {} };
}

function setup(scripts: Script[], options: Record<string, unknown> = {}) {
  const stash = new Stash({ store: new MemoryBlobStore() });
  const tokens = new TokenCounter();
  const pipeline = new Pipeline([createSemanticCache()], { options: { semantic_cache: options } }, { stash, tokens });
  const target = new FakeTarget(scripts);
  const run = async (request: ChatRequest, signal = new AbortController().signal) => {
    const reported: ResponseChunk[] = [];
    const input: RequestFlowInput = {
      id: 'r',
      request,
      target,
      optimize: (body, windowTokens, abort) => pipeline.run(body, { windowTokens, signal: abort }),
      retrieve: (handle) => stash.retrieve(handle),
      report: (chunk) => reported.push(chunk),
      signal,
      retrieveRounds: 2,
      logger: new RecordingLogger(),
      countTokens: (body) => tokens.countRequest(body),
      afterResponse: (body, answer, sessionId) => pipeline.afterResponse(body, answer, sessionId),
    };
    const record = await runRequestFlow(input);
    return { record, reported };
  };
  return { target, run };
}

describe('semantic cache in the request flow', () => {
  it('stores a live answer and serves the exact repeat without calling the target, text and tool calls in order (serveToolCalls on)', async () => {
    const answer: ResponseChunk[] = [{ type: 'text', text: 'Use ' }, { type: 'text', text: 'make.' }, { type: 'tool_call', id: 't1', name: 'run', input: { command: 'make' } }];
    const { target, run } = setup([answer], { serveToolCalls: true });
    const first = await run(question('How do I build?'));
    assert.equal(first.record.status, 'optimized');
    assert.equal(target.received.length, 1);
    const second = await run(question('How do I build?'));
    assert.equal(second.record.status, 'served-from-cache');
    assert.equal(target.received.length, 1, 'the target was not called for the repeat');
    assert.deepEqual(second.reported, answer);
    assert.ok(second.record.decisions.some((decision) => decision.action === 'response-served-from-cache'));
  });

  it('by default sends an agent step (an answer that calls a tool) to the model again, and serves a text answer', async () => {
    const step: ResponseChunk[] = [{ type: 'text', text: 'Running the tests.' }, { type: 'tool_call', id: 't1', name: 'run_in_terminal', input: { command: 'pytest' } }];
    const { target, run } = setup([step, step, [{ type: 'text', text: 'The build uses make.' }]]);
    await run(question('Run the tests'));
    const again = await run(question('Run the tests'));
    assert.equal(target.received.length, 2, 'the repeated agent step reached the model');
    assert.equal(again.record.status, 'optimized');
    assert.ok(again.record.decisions.some((decision) => decision.action === 'cache-bypassed' && /calls a tool/.test(decision.reason)));
    await run(question('How do I build?'));
    const repeat = await run(question('How do I build?'));
    assert.equal(repeat.record.status, 'served-from-cache');
    assert.equal(target.received.length, 3);
  });

  it('sends a different question to the target', async () => {
    const { target, run } = setup([[{ type: 'text', text: 'A' }], [{ type: 'text', text: 'B' }]]);
    await run(question('first'));
    const other = await run(question('second'));
    assert.equal(target.received.length, 2);
    assert.deepEqual(other.reported, [{ type: 'text', text: 'B' }]);
  });

  it('does not store a cancelled answer or one with parts it cannot keep', async () => {
    const cancel = new AbortController();
    const { target, run } = setup([
      () => {
        cancel.abort();
        return [];
      },
      [{ type: 'other', part: { kind: 'thinking' } }, { type: 'text', text: 'x' }],
      [{ type: 'text', text: 'fresh' }],
      [{ type: 'text', text: 'fresh again' }],
    ]);
    await run(question('cancelled'), cancel.signal);
    await run(question('cancelled'));
    assert.equal(target.received.length, 2, 'a cancelled turn left nothing to serve');
    await run(question('cancelled'));
    assert.equal(target.received.length, 3, 'an answer with an opaque part was not stored');
  });

  it('accepts only answers in its own shape from the cache', () => {
    assert.equal(cachedAnswerOf({ choices: [] }), undefined);
    assert.equal(cachedAnswerOf({ herald: 'answer', chunks: [] }), undefined);
    assert.equal(cachedAnswerOf({ herald: 'answer', chunks: [{ type: 'text', text: 1 }] }), undefined);
    assert.ok(cachedAnswerOf({ herald: 'answer', chunks: [{ type: 'text', text: 'ok' }] }));
  });
});
