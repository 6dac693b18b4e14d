import { strict as assert } from 'node:assert';
import type { ChatRequest } from '../../../src/core/chat/types';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { RETRIEVE_TOOL_NAME, runRequestFlow, type RequestFlowInput } from '../../../src/core/flow/requestFlow';
import { FakeTarget } from './fakeTarget';
import { conversation, elidingStrategy } from './flowFixtures';

/** One session through one pipeline: each call sends the next request of it. */
function session(overrides: Partial<RequestFlowInput> = {}) {
  const stash = new Stash({ store: new MemoryBlobStore() });
  const tokens = new TokenCounter();
  const pipeline = new Pipeline([elidingStrategy()], {}, { stash, tokens });
  const target = new FakeTarget([]);
  const send = (request: ChatRequest) =>
    runRequestFlow({
      id: 'r',
      request,
      target,
      optimize: (next, windowTokens, signal) => pipeline.run(next, { windowTokens, signal }),
      retrieve: (handle) => stash.retrieve(handle),
      report: () => undefined,
      signal: new AbortController().signal,
      retrieveRounds: 4,
      logger: new RecordingLogger(),
      countTokens: (next) => tokens.countRequest(next),
      ...overrides,
    });
  return { target, send };
}

/** The conversation up to its first tool result (fresh: nothing elided yet), then the whole of it (that result is history: elided). */
const firstRequest = (): ChatRequest => ({ ...conversation(), messages: conversation().messages.slice(0, 3) });

describe('one tools block per session', () => {
  it('offers herald_retrieve from the first request on, so the request with the first marker keeps the tools block byte for byte', async () => {
    const { target, send } = session();
    await send(firstRequest());
    await send(conversation());
    assert.ok(!JSON.stringify(target.received[0]!.messages).includes('[herald: '), 'nothing elided on the first request');
    assert.ok(JSON.stringify(target.received[1]!.messages).includes('[herald: '), 'the second request carries a marker');
    assert.deepEqual(target.received[0]!.tools.map((tool) => tool.name), ['run', RETRIEVE_TOOL_NAME]);
    assert.equal(JSON.stringify(target.received[1]!.tools), JSON.stringify(target.received[0]!.tools));
  });

  it('offers none of its own tools when no round could answer them (retrieval off), before or after an elision', async () => {
    const { target, send } = session({ retrieveRounds: 0 });
    await send(firstRequest());
    await send(conversation());
    assert.deepEqual(target.received.map((request) => request.tools.map((tool) => tool.name)), [['run'], ['run']]);
    const sent = JSON.stringify(target.received[1]!.messages);
    assert.match(sent, /\[herald: 200 lines elided · hr_[a-z2-7]{16}\]/, 'the marker still names its handle');
    assert.ok(!sent.includes('retrieve hr_'), 'and promises no retrieve the model cannot make');
  });

  it('keeps the retrieve promise when the caller brings its own herald_retrieve', async () => {
    const { target, send } = session({ retrieveRounds: 0 });
    const own = { name: RETRIEVE_TOOL_NAME, description: 'the caller\'s' };
    await send({ ...firstRequest(), tools: [...firstRequest().tools, own] });
    await send({ ...conversation(), tools: [...conversation().tools, own] });
    assert.ok(JSON.stringify(target.received[1]!.messages).includes('· retrieve hr_'));
  });

  it('leaves a request without tools (a plain chat) without a tool until it carries a marker', async () => {
    const { target, send } = session();
    await send({ ...firstRequest(), tools: [], messages: [firstRequest().messages[0]!] });
    assert.deepEqual(target.received[0]!.tools, []);
  });
});
