/** A rewrite of cached history must pay for itself, priced with the provider's cache and the session's expected length. */
import { strict as assert } from 'node:assert';
import type { ChatMessage, ChatRequest } from '../../../src/core/chat/types';
import { cachePricesOf, freshElisionGain, markersShownBefore, RETRIEVAL_RISK, retrievalRisk, rewriteGain, RewriteEconomics } from '../../../src/core/pipeline/cacheEconomics';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { createObservationMask } from '../../../src/core/strategies/observationMask';
import { createPromptCompression } from '../../../src/core/strategies/promptCompression';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';

const ANTHROPIC = cachePricesOf({ format: 'anthropic' });
const OPENAI = cachePricesOf({ format: 'openai' });

const text = (role: ChatMessage['role'], value: string): ChatMessage => ({ role, parts: [{ type: 'text', text: value }], contentShape: 'parts' });
const call = (id: string): ChatMessage => ({ role: 'assistant', parts: [{ type: 'tool_call', id, name: 'run', arguments: { command: `step ${id}` } }], contentShape: 'parts' });
const result = (id: string, value: string): ChatMessage => ({ role: 'user', parts: [{ type: 'tool_result', callId: id, content: [{ type: 'text', text: value }], contentShape: 'parts' }], contentShape: 'parts' });
/** `count` well-formed markers with distinct handles: what a session that has already shown them carries in its history. */
const markers = (count: number): string => Array.from({ length: count }, (_, index) => `[herald: 40 lines elided · retrieve hr_${'abcdefghijklmnopqrstuvwxyz234567'[index % 32]!.repeat(15)}${'abcdefghijklmnopqrstuvwxyz234567'[Math.floor(index / 32) % 32]!}]`).join('\n');
/** A session that has shown the model enough markers that the next one is priced at the recorded rate. */
const SEASONED = markers(Math.ceil(1 / RETRIEVAL_RISK));
const LISTING = Array.from({ length: 120 }, (_, index) => `./packages/module_${index}/src/component_${index}.py`).join('\n');

const request = (messages: ChatMessage[], format: ChatRequest['format'] = 'anthropic'): ChatRequest => ({ format, messages, tools: [], options: {} });

describe('a rewrite of cached history pays for itself', () => {
  it('weighs what it saves over the requests left against what it writes again now', () => {
    const quote = { beforeTokens: 2000, afterTokens: 1600, suffixTokens: 0, requestTokens: 10_000 };
    assert.ok(rewriteGain({ ...quote, remainingRequests: 5 }, ANTHROPIC) < 0, 'a 20% digest does not pay in a short session');
    assert.ok(rewriteGain({ ...quote, remainingRequests: 60 }, ANTHROPIC) > 0, 'it does in a long one');
    assert.ok(rewriteGain({ ...quote, afterTokens: 20, remainingRequests: 2 }, ANTHROPIC) > 0, 'a mask pays at once');
    assert.ok(rewriteGain({ ...quote, afterTokens: 20, remainingRequests: 2, suffixTokens: 20_000 }, ANTHROPIC) < 0, 'unless it makes the provider write much cached content again');
    const digest = { ...quote, afterTokens: 1400, remainingRequests: 25 };
    assert.ok(rewriteGain(digest, ANTHROPIC) < 0 && rewriteGain(digest, OPENAI) > 0, 'no write premium (OpenAI) makes a smaller rewrite pay');
  });

  it('charges a rewrite for the cached content after it, once per run', () => {
    const tokens = new TokenCounter();
    const messages = [text('user', 'go'), call('a'), result('a', LISTING), call('b'), result('b', LISTING), call('c'), result('c', LISTING), text('assistant', 'done'), text('user', 'next')];
    const before = tokens.count(LISTING);
    const economics = new RewriteEconomics(request(messages), 9 - 1, tokens);
    assert.equal(economics.cachedEnd, 7, 'the last answer is new in this request; everything before it is cached');
    assert.ok(!economics.pays(2, before, 30), 'masking the first output makes the provider write the two after it again: it does not pay');
    assert.ok(economics.pays(6, before, 30), 'the last cached output has nothing cached after it: masking it pays');
    assert.ok(economics.pays(4, before, 30) && economics.pays(2, before, 30), 'once a later one is rewritten, what follows it is written again anyway: only the bytes up to it count');
  });

  it('in the pipeline: a cold start leaves a listing deep in cached history that a warm session masks when it becomes history', async () => {
    const step = (index: number): string => Array.from({ length: 50 }, (_, line) => `s${index}l${line} ok`).join(' ');
    const messages: ChatMessage[] = [text('user', 'Tidy the repository.'), call('big'), result('big', LISTING)];
    for (let index = 0; index < 20; index++) messages.push(call(`s${index}`), result(`s${index}`, step(index)));
    messages.push(text('assistant', 'Now the README.'), text('user', 'go on'));
    const options = { observation_mask: { keepRecentTurns: 0 } };
    const masked = (out: { request: ChatRequest }): boolean => JSON.stringify(out.request.messages[2]!.parts).includes('observation masked');
    const cold = new Pipeline([createObservationMask()], { options }, { stash: new Stash({ store: new MemoryBlobStore() }) });
    assert.ok(!masked(await cold.run(request(messages))), 'cold: masking it would make the provider write the 20 cached steps after it again');
    const fixed = new Pipeline([createObservationMask()], { options, cachedRewriteMinSavedShare: 0.4 }, { stash: new Stash({ store: new MemoryBlobStore() }) });
    assert.ok(masked(await fixed.run(request(messages))), 'the fixed share ignores what follows and masks it');
    const warm = new Pipeline([createObservationMask()], { options }, { stash: new Stash({ store: new MemoryBlobStore() }) });
    for (let end = 3; end <= messages.length - 2; end += 2) await warm.run(request(messages.slice(0, end)));
    const last = await warm.run(request(messages));
    assert.ok(masked(last), 'warm: decided when it became history, with nothing cached after it');
  });

  it('prices an elision of uncached input with the retrieve round it may cause', () => {
    const tidy = { beforeTokens: 7000, afterTokens: 6925, originalTokens: 7000, requestTokens: 17_000, remainingRequests: 2 };
    assert.ok(freshElisionGain(tidy, OPENAI) < 0 && freshElisionGain(tidy, ANTHROPIC) < 0, 'a 75-token tidy of a 7,000-token system prompt: a round would resend it all');
    const digest = { beforeTokens: 3100, afterTokens: 500, originalTokens: 3100, requestTokens: 9000, remainingRequests: 2 };
    assert.ok(freshElisionGain(digest, OPENAI) > 0 && freshElisionGain(digest, ANTHROPIC) > 0, 'a digest that takes 2,600 tokens out of a 3,100-token log pays');
    assert.ok(freshElisionGain({ ...tidy, remainingRequests: 60 }, ANTHROPIC) > 0, 'the same tidy pays over a long session');
  });

  it('in the pipeline: a session\'s first system prompt is not tidied for a sliver, unless the fixed share is asked for', async () => {
    const rules = Array.from({ length: 400 }, (_, index) => `Rule ${index}: keep module ${index} and its tests in step with the service contract number ${index * 7}.`).join('\n');
    const system = `${rules}\n\n${'Be concise and answer in English, citing the rule numbers you used.   '.repeat(30)}`;
    const first = request([text('system', system), text('user', 'Which rules cover billing?')], 'openai');
    const tidied = (out: { request: ChatRequest }): boolean => JSON.stringify(out.request.messages[0]!.parts).includes('prompt tidied');
    const priced = new Pipeline([createPromptCompression()], {}, { stash: new Stash({ store: new MemoryBlobStore() }) });
    assert.equal(tidied(await priced.run(first)), false, 'a few tokens saved against a round that would resend the whole prompt');
    const fixed = new Pipeline([createPromptCompression()], { cachedRewriteMinSavedShare: 0.4 }, { stash: new Stash({ store: new MemoryBlobStore() }) });
    assert.equal(tidied(await fixed.run(first)), true, 'the fixed rule tidies whatever saves a token of fresh text');
  });

  it('prices the next marker pessimistically in a session that has shown few: 1 for the first, then 1 / (1 + m), never below the recorded rate', () => {
    assert.equal(retrievalRisk(0), 1);
    assert.equal(retrievalRisk(1), 0.5);
    assert.equal(retrievalRisk(3), 0.25);
    assert.equal(retrievalRisk(1000), RETRIEVAL_RISK);
    const shown = request([text('user', `a ${markers(3)} b`), text('assistant', markers(2).split('\n')[1]!), text('user', markers(40))]);
    assert.equal(markersShownBefore(shown, 2), 3, 'distinct handles before the fresh input, repeats counted once');
    assert.equal(markersShownBefore(shown, 3), 40);
  });

  it('makes a session\'s first marker pay for the retrieve round it may cause, and a later one at the rate the session has earned', () => {
    const tokens = new TokenCounter();
    const before = tokens.count(LISTING);
    const session = (first: string): ChatMessage[] => [text('user', first), call('a'), result('a', 'ok'), call('b'), result('b', 'ok'), call('c'), result('c', LISTING), text('assistant', 'done'), text('user', 'next')];
    const fresh = new RewriteEconomics(request(session('go')), 8, tokens, undefined, true);
    assert.equal(fresh.risk(), 1, 'no marker shown yet: the model is taken to ask for the first');
    assert.ok(!fresh.pays(6, before, 30), 'a short session cannot earn back a round and the original sent again: the first mask does not pay');
    const seasoned = new RewriteEconomics(request(session(`go\n${SEASONED}`)), 8, tokens, undefined, true);
    assert.ok(seasoned.pays(6, before, 30), 'the same mask pays where the session has shown markers the model left alone');
    // Fresh input: a digest of a 3,100-token log to 500 pays at the recorded rate, not with a full round in a three-request session.
    const digest = { beforeTokens: 3100, afterTokens: 500, originalTokens: 3100, requestTokens: 9000, remainingRequests: 3 };
    assert.ok(freshElisionGain(digest, OPENAI) > 0 && freshElisionGain(digest, OPENAI, retrievalRisk(0)) < 0);
    // Within one run each accepted elision is one more marker in front of the model.
    const long: ChatMessage[] = [text('user', 'go')];
    for (let index = 0; index < 40; index++) long.push(call(`s${index}`), result(`s${index}`, index % 10 === 9 ? LISTING : 'ok'));
    long.push(text('assistant', 'done'), text('user', 'next'));
    const economics = new RewriteEconomics(request(long, 'openai'), long.length - 1, tokens, undefined, true);
    assert.equal(economics.risk(), 1);
    assert.ok(economics.pays(80, before, 30), 'a long session earns the first round back: the last listing is masked though the model may ask for it');
    assert.equal(economics.risk(), 0.5, 'the next marker is priced at half a round');
  });

  it('in the pipeline: a short session\'s first output is not masked when the round it may cause costs more than it saves; a session that has shown markers masks it', async () => {
    const step = (index: number): string => Array.from({ length: 50 }, (_, line) => `s${index}l${line} ok`).join(' ');
    const session = (first: string): ChatMessage[] => [text('user', first), call('s0'), result('s0', step(0)), call('big'), result('big', LISTING), call('s1'), result('s1', step(1)), text('assistant', 'Now the README.'), text('user', 'go on')];
    const options = { observation_mask: { keepRecentTurns: 0 } };
    const masked = (out: { request: ChatRequest }): boolean => JSON.stringify(out.request.messages[4]!.parts).includes('observation masked');
    // A flow that answers herald_retrieve in the turn tells the pipeline so with the run's targetKind.
    const run = async (first: string, runOptions: { targetKind?: 'endpoint' }): Promise<boolean> => {
      const pipeline = new Pipeline([createObservationMask()], { options }, { stash: new Stash({ store: new MemoryBlobStore() }) });
      const messages = session(first);
      let last = await pipeline.run(request(messages.slice(0, 3), 'openai'), runOptions);
      for (let end = 5; end <= messages.length; end += 2) last = await pipeline.run(request(messages.slice(0, end), 'openai'), runOptions);
      return masked(last);
    };
    const served = { targetKind: 'endpoint' } as const;
    assert.equal(await run('Tidy the repository.', served), false, 'the first marker of a four-request session would be retrieved at a loss');
    assert.equal(await run(`Tidy the repository.\n${SEASONED}`, served), true, 'with markers already shown the mask pays');
    assert.equal(await run('Tidy the repository.', {}), true, 'where no flow answers a retrieve in the turn (optimize, replays) the recorded rate prices it');
  });
});
