/** What a turn cost, as the flow records it: rounds, premium requests (Herald's own rounds included), the provider's usage; a failed or cancelled turn saved nothing. */
import { strict as assert } from 'node:assert';
import type { ChatRequest } from '../../../src/core/chat/types';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import type { TargetInformation } from '../../../src/core/flow/forwardTarget';
import { RETRIEVE_TOOL_NAME, recordOfFailure, runRequestFlow, type RequestFlowInput } from '../../../src/core/flow/requestFlow';
import { DecisionLog } from '../../../src/vscode/decisions/decisionLog';
import { FakeTarget, type Script } from './fakeTarget';
import { conversation, elidingStrategy } from './flowFixtures';

function flow(scripts: Script[], information: Partial<TargetInformation>, overrides: Partial<RequestFlowInput> = {}): { input: RequestFlowInput; target: FakeTarget } {
  const stash = new Stash({ store: new MemoryBlobStore() });
  const tokens = new TokenCounter();
  const pipeline = new Pipeline([elidingStrategy()], {}, { stash, tokens });
  const target = new FakeTarget(scripts, information);
  return {
    target,
    input: {
      id: 'r1',
      request: conversation(),
      target,
      optimize: (request, windowTokens, signal) => pipeline.run(request, { windowTokens, signal }),
      retrieve: (handle) => stash.retrieve(handle),
      report: () => undefined,
      signal: new AbortController().signal,
      retrieveRounds: 4,
      logger: new RecordingLogger(),
      countTokens: (request) => tokens.countRequest(request),
      ...overrides,
    },
  };
}

const retrieveFirst: Script = (request) => [{ type: 'tool_call', id: 'x1', name: RETRIEVE_TOOL_NAME, input: { handle: /retrieve (hr_[a-z2-7]{16})/.exec(JSON.stringify(request.messages))![1]! } }];

describe('what a turn cost', () => {
  it("counts one premium request per round to a Copilot-hosted model, Herald's retrieve round included", async () => {
    const { input, target } = flow([retrieveFirst, [{ type: 'text', text: 'Line 42.' }]], { billing: 'premium-requests' });
    const record = await runRequestFlow(input);
    assert.equal(target.received.length, 2);
    assert.equal(record.rounds, 2);
    assert.equal(record.premiumRequests, 2, 'the retrieve round is one more user-initiated request');
    assert.equal(record.billing, 'premium-requests');
  });

  it('counts the tokens of every round it sent, the retrieve round included, not just the first request', async () => {
    const tokens = new TokenCounter();
    const { input, target } = flow([retrieveFirst, [{ type: 'text', text: 'Line 42.' }]], { billing: 'tokens' }, { countTokens: (request) => tokens.countRequest(request) });
    const record = await runRequestFlow(input);
    const sent = target.received.map((request) => tokens.countRequest(request));
    assert.deepEqual(record.roundTokens, sent);
    assert.equal(record.tokensAfter, sent[0]! + sent[1]!);
    assert.ok(sent[1]! > sent[0]!, 'the round re-sends the whole request with the original added');
  });

  it('reports the provider\'s own input over every round when it returned usage, the saving in the same count', async () => {
    const tokens = new TokenCounter();
    const usage = (inputTokens: number) => ({ type: 'usage' as const, usage: { inputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 3 } });
    const { input, target } = flow([(request) => [...(retrieveFirst as (request: ChatRequest) => never[])(request), usage(1200)], [{ type: 'text', text: 'ok' }, usage(1500)]], { billing: 'tokens' }, { countTokens: (request) => tokens.countRequest(request) });
    const record = await runRequestFlow(input);
    const sent = target.received.map((request) => tokens.countRequest(request));
    assert.equal(record.tokensAfter, 2700, 'the provider\'s input, both rounds');
    assert.deepEqual(record.countedTokens, { before: tokens.countRequest(conversation()), after: sent[0]! + sent[1]! });
    assert.equal(record.tokensBefore, Math.round((record.countedTokens!.before * 2700) / record.countedTokens!.after), 'direct, in the provider\'s count');
  });

  it('counts no premium requests for an endpoint, and sums the usage each round reported', async () => {
    const { input } = flow(
      [
        (request) => [...(retrieveFirst as (request: ChatRequest) => never[])(request), { type: 'usage', usage: { inputTokens: 900, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 20 } }],
        [{ type: 'text', text: 'ok' }, { type: 'usage', usage: { inputTokens: 100, cacheReadTokens: 850, cacheWriteTokens: 0, outputTokens: 5 } }],
      ],
      { billing: 'tokens' },
    );
    const record = await runRequestFlow(input);
    assert.equal(record.premiumRequests, 0);
    assert.deepEqual(record.usage, { inputTokens: 1000, cacheReadTokens: 850, cacheWriteTokens: 0, outputTokens: 25 });
  });

  it('counts herald_retrieve calls the model addresses to a caller tool of that name', async () => {
    const request = { ...conversation(), tools: [...conversation().tools, { name: RETRIEVE_TOOL_NAME, description: 'the caller\'s own' }] };
    const { input } = flow([[{ type: 'tool_call', id: 'y', name: RETRIEVE_TOOL_NAME, input: { handle: 'hr_aaaaaaaaaaaaaaaa' } }]], {}, { request });
    const record = await runRequestFlow(input);
    assert.equal(record.retrievals, 0);
    assert.equal(record.callerRetrievals, 1);
  });

  it('a failed turn is recorded as failed, spent its premium request, and adds nothing to the savings', async () => {
    const { input } = flow([new Error('Herald: endpoint "x" refused the connection')], { billing: 'premium-requests' });
    const error = await runRequestFlow(input).then(() => undefined, (failure: unknown) => failure);
    const record = recordOfFailure(error)!;
    assert.equal(record.status, 'failed');
    assert.equal(record.premiumRequests, 1);
    assert.ok(record.tokensBefore > record.tokensAfter, 'the optimizer did run');
    const log = new DecisionLog();
    log.add(record);
    assert.equal(log.sessionTotals().tokensSaved, 0);
    assert.equal(log.sessionTotals().failures, 1);
    assert.equal(log.sessionTotals().premiumRequests, 1);
  });

  it('a turn the caller stopped is "cancelled", whether the target threw or the stream ended', async () => {
    const abort = new AbortController();
    const { input } = flow([(request) => (abort.abort(), [{ type: 'text', text: 'par' }, ...[request].map(() => ({ type: 'text' as const, text: 'tial' }))])], {}, { signal: abort.signal });
    const error = await runRequestFlow(input).then(() => undefined, (failure: unknown) => failure);
    assert.equal(recordOfFailure(error)?.status, 'cancelled');
    const quiet = new AbortController();
    const ended = flow([[{ type: 'text', text: 'a' }]], {}, { signal: quiet.signal, report: () => quiet.abort() });
    const record = await runRequestFlow(ended.input);
    assert.equal(record.status, 'cancelled');
    const log = new DecisionLog();
    log.add(record);
    assert.deepEqual([log.sessionTotals().tokensSaved, log.sessionTotals().cancelled], [0, 1]);
  });
});

describe('a turn\'s figures in a log line', () => {
  it('shows the rounds and, when the provider reported usage, the provider\'s own figures', async () => {
    const { describeTurnTokens } = await import('../../../src/core/flow/turnFigures');
    assert.equal(describeTurnTokens({ tokensBefore: 30192, tokensAfter: 18837, rounds: 1 }), '30192 → 18837 tokens');
    assert.equal(
      describeTurnTokens({ tokensBefore: 30192, tokensAfter: 41000, rounds: 2, usage: { inputTokens: 1220, cacheReadTokens: 40000, cacheWriteTokens: 3000, outputTokens: 50 } }),
      '30192 → 41000 tokens over 2 rounds; provider billed 44220 input tokens (40000 cache read, 3000 cache write, 1220 fresh)',
    );
  });
});
