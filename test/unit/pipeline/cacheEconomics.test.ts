/** A rewrite of cached history must pay for itself, priced with the provider's cache and the session's expected length. */
import { strict as assert } from 'node:assert';
import type { ChatMessage, ChatRequest } from '../../../src/core/chat/types';
import { batchGain, cachePricesOf, freshElisionGain, rewriteGain, RewriteEconomics } from '../../../src/core/pipeline/cacheEconomics';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { createCacheLint } from '../../../src/core/strategies/cacheLint';
import { createObservationMask } from '../../../src/core/strategies/observationMask';
import { createPromptCompression } from '../../../src/core/strategies/promptCompression';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';

const ANTHROPIC = cachePricesOf({ format: 'anthropic' });
const OPENAI = cachePricesOf({ format: 'openai' });

const text = (role: ChatMessage['role'], value: string): ChatMessage => ({ role, parts: [{ type: 'text', text: value }], contentShape: 'parts' });
const call = (id: string): ChatMessage => ({ role: 'assistant', parts: [{ type: 'tool_call', id, name: 'run', arguments: { command: `step ${id}` } }], contentShape: 'parts' });
const result = (id: string, value: string): ChatMessage => ({ role: 'user', parts: [{ type: 'tool_result', callId: id, content: [{ type: 'text', text: value }], contentShape: 'parts' }], contentShape: 'parts' });
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

  it('prices a run\'s rewrites as one batch: the cached history from the earliest one is written once', () => {
    // Three cached messages of 1,000 tokens, the first and third masked to 10; one fresh message of 500 digested to 100.
    const quote = { before: [1000, 1000, 1000, 500], after: [10, 1000, 10, 100], cachedEnd: 3, remainingRequests: 10 };
    const saved = 0.1 * 990 * 10 * 2 + 400 * (1.25 + 0.1 * 10);
    const written = (1.25 * 10 - 0.1 * 1000) + (1.25 * 1000 - 0.1 * 1000) + (1.25 * 10 - 0.1 * 1000);
    assert.equal(Math.round(batchGain(quote, ANTHROPIC)), Math.round(saved - written));
    assert.ok(batchGain({ ...quote, remainingRequests: 1 }, ANTHROPIC) < batchGain(quote, ANTHROPIC), 'fewer requests left, less to gain');
  });

  it('records a rewrite refused only for the cached history after it, and prices it alone once that history is written anyway', () => {
    const tokens = new TokenCounter();
    const messages = [text('user', 'go'), call('a'), result('a', LISTING), call('b'), result('b', LISTING), call('c'), result('c', LISTING), text('assistant', 'done'), text('user', 'next')];
    const before = tokens.count(LISTING);
    const economics = new RewriteEconomics(request(messages), 8, tokens);
    assert.ok(!economics.pays(2, before, 30));
    assert.equal(economics.refusedForSuffix, 2, 'it would have paid for its own bytes');
    assert.ok(!economics.pays(2, before, before - 1) && economics.refusedForSuffix === 2, 'a rewrite that would not pay alone is not recorded');
    const batch = new RewriteEconomics(request(messages), 8, tokens, undefined, false, 2);
    assert.ok(batch.pays(2, before, 30) && batch.pays(4, before, 30), 'from message 2 on the history is written again anyway: each pays for its own bytes');
  });

  it('in the pipeline: cold history whose masks are each refused for what follows them is masked as one batch when together they pay', async () => {
    const listing = (tag: string): string => Array.from({ length: 120 }, (_, index) => `./${tag}/module_${index}/component_${index}.py`).join('\n');
    const messages: ChatMessage[] = [text('user', 'Tidy the repository.')];
    for (let index = 0; index < 8; index++) messages.push(call(`l${index}`), result(`l${index}`, listing(`area${index}`)));
    // The last three turns are recent on a cold start: kept whole, and cached after every listing.
    for (let index = 0; index < 3; index++) messages.push(call(`r${index}`), result(`r${index}`, listing(`recent${index}`)));
    messages.push(text('assistant', 'Now the README.'), text('user', 'go on'));
    const masks = (out: { request: ChatRequest }): number => out.request.messages.filter((message) => JSON.stringify(message.parts).includes('observation masked')).length;
    const options = { observation_mask: { keepRecentTurns: 3 } };
    const tokens = new TokenCounter();
    const economics = new RewriteEconomics(request(messages), messages.length - 1, tokens);
    const size = tokens.count(listing('area7'));
    assert.ok(!economics.pays(16, size, 20), 'one by one, the latest listing does not pay for the three recent turns written again after it');
    const out = await new Pipeline([createObservationMask(), createCacheLint()], { options }, { stash: new Stash({ store: new MemoryBlobStore() }) }).run(request(messages));
    assert.equal(masks(out), 8, 'together the eight masks pay for writing the recent turns again once');
    const lint = out.decisions.find((decision) => decision.strategy === 'cache_lint');
    assert.equal(lint?.action, 'prefix-recorded', 'the batch pass starts from the pins the first pass started from: still the session\'s first turn');
    const short = messages.slice(0, 5).concat(messages.slice(17));
    const alone = await new Pipeline([createObservationMask()], { options }, { stash: new Stash({ store: new MemoryBlobStore() }) }).run(request(short));
    assert.equal(masks(alone), 0, 'two listings in a short session do not pay for it: the batch is refused too');
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
});
