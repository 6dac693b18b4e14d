import { strict as assert } from 'node:assert';
import { parseRequest } from '../chat';
import { loadTrajectory, skipWithoutData } from '../../../test/support/sharedData';
import { createSemanticCache } from './semanticCache';
import { createToolSchemaCompression } from './toolSchemaCompression';
import { pipelineOf, toolCallingTurns } from '../../../test/support/agentFixtures';
import { MemoryResponseCache } from './responseCache/responseCache';
import { normaliseVolatile } from './responseCache/volatileText';
import { answerCallsTool } from './responseCache/answerShape';

const ANSWER = { id: 'msg_1', content: [{ type: 'text', text: 'The refund window is 30 days.' }] };

describe('semantic_cache', () => {
  for (const format of ['openai', 'anthropic'] as const) {
    it(`serves an exact repeat of a real agent request without the model, and writes live answers back (${format})`, async function () {
      skipWithoutData(this);
      const body = toolCallingTurns(loadTrajectory('django__django-10973'), format, { maxTurns: 3 })[2]!;
      const { pipeline } = pipelineOf([createSemanticCache()]);
      const first = await pipeline.run(parseRequest(body));
      assert.equal(first.response, undefined);
      assert.equal(first.decisions[0]!.action, 'cache-missed');
      await pipeline.afterResponse(first.request, ANSWER, first.sessionId);

      const repeat = await pipeline.run(parseRequest(structuredClone(body)));
      assert.deepEqual(repeat.response, ANSWER);
      assert.equal(repeat.decisions[0]!.action, 'response-served-from-cache');

      const retried = await pipeline.run(parseRequest(structuredClone(body)));
      assert.equal(retried.response, undefined, 'the same request right after a cached answer is a retry and goes to the model');
      assert.equal(retried.decisions[0]!.action, 'cache-bypassed');
      const NEW_ANSWER = { ...ANSWER, id: 'msg_2' };
      await pipeline.afterResponse(retried.request, NEW_ANSWER, retried.sessionId);

      const streamed = await pipeline.run(parseRequest({ ...structuredClone(body), stream: true, metadata: { user_id: 'u1' } }));
      assert.deepEqual(streamed.response, NEW_ANSWER, 'transport-only fields do not change the key; the retry answer replaced the old one');
      const hotter = await pipeline.run(parseRequest({ ...structuredClone(body), temperature: 0.9 }));
      assert.equal(hotter.response, undefined, 'an answer-shaping parameter does');
      const otherModel = await pipeline.run(parseRequest({ ...structuredClone(body), model: 'other-model' }));
      assert.equal(otherModel.response, undefined);
    });
  }

  it('tells an agent step from a text answer in every shape a host stores', () => {
    assert.equal(answerCallsTool(ANSWER), false);
    assert.equal(answerCallsTool({ herald: 'answer', chunks: [{ type: 'text', text: 'ok' }] }), false);
    assert.equal(answerCallsTool({ herald: 'answer', chunks: [{ type: 'text', text: 'ok' }, { type: 'tool_call', id: 't', name: 'run', input: {} }] }), true);
    assert.equal(answerCallsTool({ choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'run', arguments: '{}' } }] } }] }), true);
    assert.equal(answerCallsTool({ choices: [{ message: { role: 'assistant', content: 'no tools', tool_calls: [] } }] }), false);
    assert.equal(answerCallsTool({ content: [{ type: 'text', text: 'Reading it.' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }] }), true);
    assert.equal(answerCallsTool({ output: [{ type: 'function_call', call_id: 'c', name: 'shell', arguments: '{}' }] }), true);
    assert.equal(answerCallsTool({ content: [{ type: 'text', text: 'the word tool_use in text is not a call' }] }), false);
  });

  it('does not serve a stored agent step unless serveToolCalls is on', async () => {
    const body = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Run the failing test' }] };
    const step = { id: 'msg_3', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'pytest -x' } }] };
    for (const serveToolCalls of [false, true]) {
      const { pipeline } = pipelineOf([createSemanticCache()], { semantic_cache: { serveToolCalls } });
      const first = await pipeline.run(parseRequest(body));
      await pipeline.afterResponse(first.request, step, first.sessionId);
      const repeat = await pipeline.run(parseRequest(structuredClone(body)));
      if (serveToolCalls) assert.deepEqual(repeat.response, step);
      else {
        assert.equal(repeat.response, undefined, 'the step goes to the model again');
        assert.equal(repeat.decisions[0]!.action, 'cache-bypassed');
        assert.equal(repeat.decisions[0]!.details?.agentStep, true);
      }
    }
  });

  it('keeps scopes apart and expires old answers', async () => {
    let clock = 1_000_000;
    const store = new MemoryResponseCache();
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'What is our refund policy?' }] };
    const teamA = pipelineOf([createSemanticCache({ store, now: () => clock })], { semantic_cache: { scope: 'team-a', ttlMs: 60_000 } }).pipeline;
    const teamB = pipelineOf([createSemanticCache({ store, now: () => clock })], { semantic_cache: { scope: 'team-b', ttlMs: 60_000 } }).pipeline;
    const first = await teamA.run(parseRequest(body));
    await teamA.afterResponse(first.request, ANSWER, first.sessionId);
    assert.deepEqual((await teamA.run(parseRequest(body))).response, ANSWER);
    assert.equal((await teamB.run(parseRequest(body))).response, undefined);
    clock += 60_001;
    const expired = await teamA.run(parseRequest(body));
    assert.equal(expired.response, undefined);
    assert.equal(expired.decisions[0]!.details?.expired, true);
  });

  it('measures a normalised shadow hit on volatile values and never serves it', async () => {
    const observation = (stamp: string, id: string): unknown => ({
      model: 'claude-sonnet-4-5', max_tokens: 1024,
      messages: [
        { role: 'user', content: 'Why did the deploy fail?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'logs', input: { service: 'api' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: `${stamp} ERROR request_id=${id} upstream timeout after retry 3 of 5\nwrote /tmp/deploy-${id}.log` }] },
      ],
    });
    const { pipeline } = pipelineOf([createSemanticCache()]);
    const totals = (result: { decisions: readonly { details?: Record<string, unknown> }[] }): [unknown, unknown] => [result.decisions[0]!.details?.shadowMeasured, result.decisions[0]!.details?.shadowWouldHit];
    // Each arrival and its answer, as a host hands them over: the request as it arrived, then the answer.
    const answered = async (body: unknown) => {
      const arrived = parseRequest(body);
      const result = await pipeline.run(arrived);
      await pipeline.afterResponse(arrived, ANSWER, result.sessionId);
      return result;
    };
    const first = await answered(observation('2025-03-01T10:00:00Z', 'a1b2c3d4e5f6'));
    assert.deepEqual(totals(first), [0, 0], 'nothing is measured on arrival: the lane runs after the answer');
    const drifted = await answered(observation('2025-03-01T10:05:31Z', 'ffee99887766'));
    assert.equal(drifted.response, undefined, 'a shadow hit is never served');
    assert.deepEqual(totals(drifted), [1, 0], 'the first answer had no earlier one to hit');
    const different = await answered({ ...(observation('2025-03-01T10:05:31Z', 'ffee99887766') as object), temperature: 0 });
    assert.deepEqual(totals(different), [2, 1], 'the drifted request would have hit the first answer once normalised');
    assert.match(different.decisions[0]!.reason, /would have hit 1 of the session's 2 answered/);
    const after = await pipeline.run(parseRequest(observation('2025-03-01T11:00:00Z', '000111222333')));
    assert.deepEqual(totals(after), [3, 1], 'the request with a temperature hit nothing: an answer-shaping parameter is another question, normalised or not');
  });

  it('measures no shadow key for an answer handed back with the optimized request, nor with the lane off', async () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'at 2025-03-01T10:00:00Z the job failed' }] };
    const { pipeline } = pipelineOf([createSemanticCache()]);
    const first = await pipeline.run(parseRequest(body));
    await pipeline.afterResponse({ ...first.request, messages: [...first.request.messages, first.request.messages[0]!] }, ANSWER, first.sessionId);
    const next = await pipeline.run(parseRequest({ ...body, temperature: 1 }));
    assert.equal(next.decisions[0]!.details?.shadowMeasured, 0);
    const off = pipelineOf([createSemanticCache()], { semantic_cache: { shadowNormalized: false } }).pipeline;
    const arrived = parseRequest(body);
    await off.afterResponse(arrived, ANSWER, (await off.run(arrived)).sessionId);
    const again = await off.run(parseRequest({ ...body, temperature: 1 }));
    assert.equal(again.decisions[0]!.details?.shadowMeasured, undefined);
  });

  it('normalises timestamps, UUIDs, request ids, temp paths and retry counters', () => {
    const text = 'at 2025-03-01 10:00:00.123 id 123e4567-e89b-12d3-a456-426614174000 req_AbCdEf123456 /tmp/pytest-of-root/x1 attempt 2 of 5';
    assert.equal(normaliseVolatile(text), 'at <time> id <uuid> <request-id> <temp-path> attempt <n>');
  });

  it('stores the answer under the request as it arrived even when the host hands back the optimized one', async () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'search_kb', description: 'This tool allows you to search the knowledge base.', parameters: {} } }] };
    const { pipeline } = pipelineOf([createSemanticCache(), createToolSchemaCompression()]);
    const first = await pipeline.run(parseRequest(body));
    assert.notDeepEqual(first.request.tools, parseRequest(body).tools, 'the optimized request differs');
    await pipeline.afterResponse(first.request, ANSWER, first.sessionId);
    assert.deepEqual((await pipeline.run(parseRequest(body))).response, ANSWER);
  });

  it('keeps its store bounded', () => {
    const store = new MemoryResponseCache(2);
    for (const key of ['a', 'b', 'c']) store.set(key, { response: key, stored: 0 });
    assert.equal(store.size, 2);
    assert.equal(store.get('a'), undefined);
  });
});
