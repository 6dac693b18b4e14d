import { strict as assert } from 'node:assert';
import { partText, type ChatRequest } from '../../../src/core/chat/types';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import type { Strategy } from '../../../src/core/pipeline/types';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import type { ResponseChunk } from '../../../src/core/flow/forwardTarget';
import { RETRIEVE_TOOL_NAME, recordOfFailure, runRequestFlow, type RequestFlowInput } from '../../../src/core/flow/requestFlow';
import { FakeTarget } from './fakeTarget';
import { BULK, conversation, elidingStrategy } from './flowFixtures';

function setup(scripts: ConstructorParameters<typeof FakeTarget>[0], strategies: Strategy[] = [elidingStrategy()], overrides: Partial<RequestFlowInput> = {}) {
  const stash = new Stash({ store: new MemoryBlobStore() });
  const tokens = new TokenCounter();
  const pipeline = new Pipeline(strategies, {}, { stash, tokens });
  const target = new FakeTarget(scripts);
  const reported: ResponseChunk[] = [];
  const logger = new RecordingLogger();
  const input: RequestFlowInput = {
    id: 'r1',
    request: conversation(),
    target,
    optimize: (request, windowTokens, signal) => pipeline.run(request, { windowTokens, signal }),
    retrieve: (handle) => stash.retrieve(handle),
    report: (chunk) => reported.push(chunk),
    signal: new AbortController().signal,
    retrieveRounds: 4,
    logger,
    countTokens: (request) => tokens.countRequest(request),
    ...overrides,
  };
  return { stash, target, reported, logger, input };
}

describe('request flow', () => {
  it('optimizes, forwards and streams every chunk back in order, recording the decisions', async () => {
    const { target, reported, input } = setup([[{ type: 'text', text: 'Line ' }, { type: 'text', text: '42.' }]]);
    const record = await runRequestFlow(input);
    assert.deepEqual(reported, [{ type: 'text', text: 'Line ' }, { type: 'text', text: '42.' }]);
    assert.equal(record.status, 'optimized');
    assert.ok(record.tokensAfter < record.tokensBefore, `${record.tokensAfter} < ${record.tokensBefore}`);
    assert.deepEqual(record.decisions.map((decision) => decision.strategy), ['test_elide']);
    assert.equal(record.handles.length, 1);
    assert.equal(target.received.length, 1);
    assert.ok(!partText(target.received[0]!.messages[2]!.parts[0]!).includes('line 150'), 'the target got the optimized request');
    assert.ok(target.received[0]!.tools.some((tool) => tool.name === RETRIEVE_TOOL_NAME), 'markers bring the retrieve tool');
  });

  it('answers herald_retrieve inside the turn with the original, byte for byte, and the caller never sees the call', async () => {
    let handle = '';
    const { target, reported, input } = setup([
      (request) => {
        handle = /retrieve (hr_[a-z2-7]{16})/.exec(JSON.stringify(request.messages))![1]!;
        return [{ type: 'text', text: 'Checking. ' }, { type: 'tool_call', id: 'x1', name: RETRIEVE_TOOL_NAME, input: { handle } }];
      },
      [{ type: 'text', text: 'Line 42 says: build output' }],
    ]);
    const record = await runRequestFlow(input);
    assert.equal(target.received.length, 2);
    const followUp = target.received[1]!;
    const answer = followUp.messages[followUp.messages.length - 1]!.parts[0]!;
    assert.ok(answer.type === 'tool_result' && answer.callId === 'x1');
    assert.equal(partText(answer), BULK);
    const assistant = followUp.messages[followUp.messages.length - 2]!;
    assert.deepEqual(assistant.parts.map((part) => part.type), ['text', 'tool_call']);
    assert.deepEqual(reported, [{ type: 'text', text: 'Checking. ' }, { type: 'text', text: 'Line 42 says: build output' }]);
    assert.equal(record.retrievals, 1);
  });

  it('records the start of the user\'s words only in content mode', async () => {
    const quiet = await runRequestFlow(setup([[{ type: 'text', text: 'ok' }]]).input);
    assert.equal(quiet.promptPreview, undefined);
    assert.ok(!JSON.stringify(quiet).includes('Which line mentions 42?'), 'no prompt text in a record by default');
    const recorded = await runRequestFlow(setup([[{ type: 'text', text: 'ok' }]], undefined, { contentMode: true }).input);
    assert.equal(recorded.promptPreview, 'Which line mentions 42?');
  });

  it('tells the model when a handle is unknown or malformed instead of failing', async () => {
    const { target, input } = setup([[{ type: 'tool_call', id: 'x1', name: RETRIEVE_TOOL_NAME, input: { handle: 'hr_aaaaaaaaaaaaaaaa' } }, { type: 'tool_call', id: 'x2', name: RETRIEVE_TOOL_NAME, input: { path: 'nope' } }], [{ type: 'text', text: 'ok' }]]);
    await runRequestFlow(input);
    const answers = target.received[1]!.messages.at(-1)!.parts.map(partText);
    assert.match(answers[0]!, /nothing is stored under hr_aaaaaaaaaaaaaaaa/);
    assert.match(answers[1]!, /needs \{"handle": "hr_…"\}/);
  });

  it("hands the caller's own tool calls over and stops, even when the model also asked Herald", async () => {
    const { target, reported, input } = setup([[{ type: 'tool_call', id: 'x1', name: RETRIEVE_TOOL_NAME, input: { handle: 'hr_aaaaaaaaaaaaaaaa' } }, { type: 'tool_call', id: 'y1', name: 'run', input: { command: 'ls' } }]]);
    await runRequestFlow(input);
    assert.equal(target.received.length, 1);
    assert.deepEqual(reported, [{ type: 'tool_call', id: 'y1', name: 'run', input: { command: 'ls' } }]);
  });

  it('stops answering after the configured number of rounds', async () => {
    const ask: ResponseChunk[] = [{ type: 'tool_call', id: 'x', name: RETRIEVE_TOOL_NAME, input: { handle: 'hr_aaaaaaaaaaaaaaaa' } }];
    const { target, reported, input } = setup([ask, ask, ask, ask], undefined, { retrieveRounds: 2 });
    const record = await runRequestFlow(input);
    assert.equal(target.received.length, 3);
    assert.equal(record.retrievals, 2);
    assert.deepEqual(reported, []);
  });

  it('does not offer or intercept herald_retrieve when the caller brought its own tool of that name', async () => {
    const request = { ...conversation(), tools: [{ name: RETRIEVE_TOOL_NAME, description: 'the caller’s' }] };
    const call: ResponseChunk = { type: 'tool_call', id: 'z', name: RETRIEVE_TOOL_NAME, input: { handle: 'hr_aaaaaaaaaaaaaaaa' } };
    const { target, reported, input } = setup([[call]], undefined, { request });
    await runRequestFlow(input);
    assert.equal(target.received[0]!.tools.filter((tool) => tool.name === RETRIEVE_TOOL_NAME).length, 1);
    assert.deepEqual(reported, [call]);
  });

  it('forwards the original request and records the error when the optimizer throws', async () => {
    const { target, input, logger } = setup([[{ type: 'text', text: 'fine' }]], [], {
      optimize: async () => {
        throw new Error('boom');
      },
    });
    const record = await runRequestFlow(input);
    assert.equal(record.status, 'forwarded-original');
    assert.equal(record.error, 'boom');
    assert.deepEqual(target.received[0]!.messages, conversation().messages);
    assert.ok(logger.lines.some((line) => line.code === 'pipeline-failed'));
  });

  it('forwards untouched when the optimizer is off', async () => {
    const { target, input } = setup([[{ type: 'text', text: 'fine' }]], undefined, { optimize: undefined });
    const record = await runRequestFlow(input);
    assert.equal(record.status, 'optimizer-off');
    assert.equal(record.tokensBefore, record.tokensAfter);
    assert.deepEqual(target.received[0], conversation());
  });

  it("rethrows the target's own error, carrying the failed request's record", async () => {
    const { input } = setup([new Error('429 rate limited by the endpoint')]);
    await assert.rejects(runRequestFlow(input), (error: unknown) => {
      assert.equal((error as Error).message, '429 rate limited by the endpoint');
      assert.equal(recordOfFailure(error)?.status, 'failed');
      return true;
    });
  });

  it('streams what arrived before a target fails mid-stream, then reports the target\'s own error', async () => {
    const { input, reported } = setup([]);
    const failing = {
      information: new FakeTarget([]).information,
      received: [] as ChatRequest[],
      async *send(request: ChatRequest): AsyncGenerator<ResponseChunk> {
        failing.received.push(request);
        yield { type: 'text', text: 'The build ' };
        yield { type: 'text', text: 'failed because' };
        throw new Error('connection reset by the endpoint');
      },
      countTokens: async (text: string) => text.length,
    };
    await assert.rejects(runRequestFlow({ ...input, target: failing }), (error: unknown) => {
      assert.equal((error as Error).message, 'connection reset by the endpoint');
      assert.equal(recordOfFailure(error)?.status, 'failed');
      return true;
    });
    const texts = reported.filter((chunk) => chunk.type === 'text').map((chunk) => (chunk.type === 'text' ? chunk.text : ''));
    assert.deepEqual(texts, ['The build ', 'failed because'], 'the part that arrived reached the caller, in order');
    assert.equal(failing.received.length, 1, 'a failed stream is not retried behind the caller\'s back');
  });

  it('stops when the caller cancels', async () => {
    const controller = new AbortController();
    const { target, input } = setup([[{ type: 'tool_call', id: 'x', name: RETRIEVE_TOOL_NAME, input: { handle: 'hr_aaaaaaaaaaaaaaaa' } }]], undefined, {
      signal: controller.signal,
      retrieve: async () => {
        controller.abort();
        return 'original';
      },
    });
    await runRequestFlow(input);
    assert.equal(target.received.length, 1, 'no further round after cancellation');
  });
});
