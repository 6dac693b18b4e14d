import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest, type ChatRequest } from '../../../src/core/chat';
import { MessageMemo, Pipeline, type Strategy } from '../../../src/core/pipeline';
import { RecordingLogger } from '../../../src/core/ports';
import { TokenCounter } from '../../../src/core/tokens';
import { replay } from '../../support/replay';
import { loadTrajectory, skipWithoutData, turnRequests } from '../../support/sharedData';
import { deepFreeze, elideLongOutputs, newStash, recordingStrategy } from './fakes';

function sampleRequest(): ChatRequest {
  const log = Array.from({ length: 40 }, (_, index) => `line ${index}: INFO all good`).join('\n');
  return parseRequest({
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'Look at the log.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"cat app.log"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: log },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'bash', arguments: '{"command":"cat other.log"}' } }] },
      { role: 'tool', tool_call_id: 'c2', content: log.replace(/good/g, 'fine') },
    ],
  });
}

describe('Pipeline', () => {
  it('with no strategies returns the request unchanged', async () => {
    const request = deepFreeze(sampleRequest());
    const result = await new Pipeline([], {}, { stash: newStash() }).run(request);
    assert.equal(result.request, request);
    assert.deepEqual(result.decisions, []);
    assert.equal(result.tokensBefore, result.tokensAfter);
  });

  it('runs enabled strategies in the given order and skips disabled ones', async () => {
    const log: string[] = [];
    const strategies = [recordingStrategy('first', log), recordingStrategy('second', log), recordingStrategy('third', log)];
    const result = await new Pipeline(strategies, { enabled: { second: false } }, { stash: newStash() }).run(sampleRequest());
    assert.deepEqual(log, ['first', 'third']);
    assert.deepEqual(result.decisions.map((decision) => decision.strategy), ['first', 'third']);
  });

  it('isolates a throwing strategy: the request goes on as it was and the decision says why', async () => {
    const log: string[] = [];
    const logger = new RecordingLogger();
    const throwing: Strategy = { id: 'broken', defaultEnabled: true, apply() { throw new Error('boom'); } };
    const request = sampleRequest();
    const result = await new Pipeline([throwing, recordingStrategy('after', log)], {}, { stash: newStash(), logger }).run(request);
    assert.equal(result.decisions[0]!.status, 'failed');
    assert.match(result.decisions[0]!.reason, /boom/);
    assert.deepEqual(log, ['after']);
    assert.equal(result.request, request);
    assert.equal(logger.lines[0]!.code, 'strategy-failed');
  });

  it('skips a strategy that runs past its time limit', async () => {
    const slow: Strategy = { id: 'slow', defaultEnabled: true, apply: (request) => new Promise((resolve) => setTimeout(() => resolve({ request: { ...request, messages: [] }, action: 'x', reason: 'x' }), 200)) };
    const request = sampleRequest();
    const result = await new Pipeline([slow], { timeLimitMs: 20 }, { stash: newStash() }).run(request);
    assert.equal(result.decisions[0]!.status, 'timeout');
    assert.equal(result.request, request);
  });

  it('discards a synchronous strategy that overran its limit', async () => {
    const busy: Strategy = {
      id: 'busy', defaultEnabled: true,
      apply(request) {
        const until = performance.now() + 30;
        while (performance.now() < until) { /* busy on purpose */ }
        return { request: { ...request, tools: [] }, action: 'x', reason: 'x' };
      },
    };
    const result = await new Pipeline([busy], { timeLimitMs: 5 }, { stash: newStash() }).run(sampleRequest());
    assert.equal(result.decisions[0]!.status, 'timeout');
  });

  it('rejects a result that drops messages, changes fresh input or is not a request', async () => {
    const dropper = recordingStrategy('dropper', [], (request) => ({ ...request, messages: request.messages.slice(1) }));
    const freshEditor = recordingStrategy('fresh_editor', [], (request) => ({ ...request, messages: request.messages.map((message, index) => (index === request.messages.length - 1 ? { ...message, parts: [{ type: 'tool_result', callId: 'c2', content: [], contentShape: 'string' }] } : message)) }));
    const garbage: Strategy = { id: 'garbage', defaultEnabled: true, apply: () => ({ request: null as unknown as ChatRequest, action: 'x', reason: 'x' }) };
    const request = sampleRequest();
    const result = await new Pipeline([dropper, freshEditor, garbage], {}, { stash: newStash() }).run(request);
    assert.deepEqual(result.decisions.map((decision) => decision.status), ['rejected', 'rejected', 'rejected']);
    assert.equal(result.request, request);
  });

  it('never mutates its input', async () => {
    const request = deepFreeze(sampleRequest());
    const before = JSON.stringify(request);
    const result = await new Pipeline([elideLongOutputs()], {}, { stash: newStash() }).run(request);
    assert.equal(JSON.stringify(request), before);
    assert.notEqual(result.request, request);
    assert.equal(result.decisions[0]!.status, 'applied');
  });

  it('composes: two pipelines in sequence give what one pipeline with both strategies gives', async () => {
    const upper = recordingStrategy('upper', [], (request) => ({ ...request, model: `${request.model}-a` }));
    const suffix = recordingStrategy('suffix', [], (request) => ({ ...request, model: `${request.model}-b` }));
    const both = await new Pipeline([upper, suffix], {}, { stash: newStash() }).run(sampleRequest());
    const first = await new Pipeline([upper], {}, { stash: newStash() }).run(sampleRequest());
    const second = await new Pipeline([suffix], {}, { stash: newStash() }).run(first.request);
    assert.deepEqual(second.request, both.request);
    assert.equal(both.request.model, 'gpt-4o-a-b');
  });

  it('stops at a strategy that answers the request and skips mutating strategies on a holdout', async () => {
    const log: string[] = [];
    const cache: Strategy = { id: 'cache', defaultEnabled: true, apply: (request) => ({ request, action: 'cache-hit', reason: 'x', response: { text: 'cached' } }) };
    const answered = await new Pipeline([cache, recordingStrategy('never', log)], {}, { stash: newStash() }).run(sampleRequest());
    assert.deepEqual(answered.response, { text: 'cached' });
    assert.deepEqual(log, []);
    const holdout: Strategy = { id: 'holdout', kind: 'signal', defaultEnabled: true, apply: (request) => ({ request, action: 'holdout-selected', reason: 'x', holdout: true }) };
    const signal: Strategy = { id: 'signal', kind: 'signal', defaultEnabled: true, apply: (request) => ({ request, action: 'measured', reason: 'x' }) };
    const result = await new Pipeline([holdout, elideLongOutputs(), signal], {}, { stash: newStash() }).run(sampleRequest());
    assert.equal(result.holdout, true);
    assert.deepEqual(result.decisions.map((decision) => decision.status), ['signal', 'skipped', 'signal']);
  });

  it('refuses a signal that changes the request', async () => {
    const sneaky: Strategy = { id: 'sneaky', kind: 'signal', defaultEnabled: true, apply: (request) => ({ request: { ...request, messages: request.messages.map((message) => ({ ...message, parts: message.parts.map((part) => (part.type === 'text' ? { ...part, text: 'changed' } : part)) })) }, action: 'x', reason: 'x' }) };
    const request = sampleRequest();
    const result = await new Pipeline([sneaky], {}, { stash: newStash() }).run(request);
    assert.equal(result.decisions[0]!.status, 'rejected');
    assert.equal(result.request, request);
  });

  it('rejects unknown strategy ids and option names with a clear error', () => {
    const strategy: Strategy = { ...elideLongOutputs(), defaults: { minLines: 5 } };
    assert.throws(() => new Pipeline([strategy], { enabled: { nope: true } }, { stash: newStash() }), /unknown strategy id "nope"/);
    assert.throws(() => new Pipeline([strategy], { options: { elide_long_outputs: { minLine: 3 } } }, { stash: newStash() }), /unknown option "minLine"/);
    assert.throws(() => new Pipeline([strategy, strategy], {}, { stash: newStash() }), /registered twice/);
  });

  it('hands every strategy the cache-rewrite share (0.4 unless set), refuses one outside 0–1, and keeps decisions of different shares apart', async () => {
    const seen: number[] = [];
    const recording: Strategy = { id: 'share_reader', defaultEnabled: true, apply: (request, context) => (seen.push(context.cachedRewriteMinSavedShare), { request, action: 'x', reason: 'x' }) };
    await new Pipeline([recording], {}, { stash: newStash() }).run(sampleRequest());
    await new Pipeline([recording], { cachedRewriteMinSavedShare: 0.1 }, { stash: newStash() }).run(sampleRequest());
    assert.deepEqual(seen, [0.4, 0.1]);
    for (const bad of [-0.1, 1.5, Number.NaN]) {
      assert.throws(() => new Pipeline([recording], { cachedRewriteMinSavedShare: bad }, { stash: newStash() }), /cachedRewriteMinSavedShare must be a number from 0 to 1/);
    }
    // One memo shared by two shares: the second must decide afresh, not replay the first one's history.
    const stash = newStash();
    const memo = new MessageMemo();
    await new Pipeline([recording], {}, { stash, memo }).run(sampleRequest());
    const second = await new Pipeline([recording], { cachedRewriteMinSavedShare: 0.2 }, { stash, memo }).run(sampleRequest());
    assert.equal(second.replayedMessages, 0);
    const third = await new Pipeline([recording], { cachedRewriteMinSavedShare: 0.2 }, { stash, memo }).run(sampleRequest());
    assert.ok(third.replayedMessages > 0, 'the same share replays its own decisions');
  });

  it('replays a real trajectory turn by turn with byte-identical prefixes and lossless markers', async function () {
    skipWithoutData(this);
    const stash = newStash();
    const tokens = new TokenCounter();
    const pipeline = new Pipeline([elideLongOutputs(8)], {}, { stash, tokens });
    const bodies = turnRequests(loadTrajectory('astropy__astropy-12907'));
    const summary = await replay(pipeline, stash, bodies, tokens);
    assert.equal(summary.turns.length, bodies.length);
    assert.equal(summary.prefixStableTurns, bodies.length);
    assert.equal(summary.losslessTurns, bodies.length);
    assert.ok(summary.tokensAfter < summary.tokensBefore * 0.9, `${summary.tokensAfter} vs ${summary.tokensBefore}`);
    // Every turn after the first replays what the previous turns decided.
    assert.ok(summary.turns.slice(1).every((turn) => turn.decisions.length === 1));
  });

  it('without the memo, a changed decision would break the prefix: the replay detects it', async function () {
    skipWithoutData(this);
    const stash = newStash();
    const tokens = new TokenCounter();
    // A strategy whose decision depends on the request length (age), decided afresh each turn.
    const ageDependent: Strategy = {
      id: 'age_dependent', defaultEnabled: true, rewritesFrozen: true,
      apply: (request) => ({ request: { ...request, messages: request.messages.map((message, index) => (index === 1 ? { ...message, parts: [{ type: 'text', text: `turn ${request.messages.length}` }] } : message)) }, action: 'x', reason: 'x' }),
    };
    const summary = await replay(new Pipeline([ageDependent], {}, { stash, tokens }), stash, turnRequests(loadTrajectory('astropy__astropy-12907')).slice(0, 5), tokens);
    assert.ok(summary.prefixStableTurns < 5);
  });

  it('round-trips the optimized request through the wire format unchanged', async () => {
    const stash = newStash();
    const result = await new Pipeline([elideLongOutputs()], {}, { stash }).run(sampleRequest());
    const wire = serializeRequest(result.request);
    assert.deepEqual(serializeRequest(parseRequest(JSON.parse(JSON.stringify(wire)))), wire);
  });
});
