import * as assert from 'node:assert/strict';
import { ANTHROPIC_CACHE_RULE, billSession, OPENAI_CACHE_RULE, ProviderCache, sumBills, type BillingBlock, type BillingRequest } from './cacheBilling';

/** A block of `tokens` tokens; `mark` puts a breakpoint on it. */
function block(key: string, tokens: number, mark = false): BillingBlock {
  return mark ? { key, tokens, breakpoint: true } : { key, tokens };
}

function request(...blocks: BillingBlock[]): BillingRequest {
  return { blocks };
}

/** Tools (2 × 2000), a system prompt (500, marked), then the messages given. */
function withPrefix(toolsKey: string, ...messages: BillingBlock[]): BillingRequest {
  return request(block(`${toolsKey}-a`, 2000), block(`${toolsKey}-b`, 2000, true), block('system', 500, true), ...messages);
}

describe('cacheBilling: Anthropic (entries only at breakpoints)', () => {
  it('writes up to the last breakpoint, bills the rest as plain input, and reads it on the next request', () => {
    const first = withPrefix('tools', block('user-1', 300, true), block('tail', 50));
    const second = withPrefix('tools', block('user-1', 300), block('tail', 50), block('user-2', 200, true));
    const [one, two] = billSession([first, second], ANTHROPIC_CACHE_RULE);
    assert.deepEqual([one.cacheReadTokens, one.cacheWriteTokens, one.freshTokens], [0, 4800, 50]);
    // The entry at user-1 (4800 tokens) is found from the breakpoint on user-2, two blocks back.
    assert.deepEqual([two.cacheReadTokens, two.cacheWriteTokens, two.freshTokens], [4800, 250, 0]);
    assert.equal(two.cost, 4800 * 0.1 + 250 * 1.25);
    assert.equal(two.totalTokens, 5050);
  });

  it('a changed tools block rewrites everything after it, the unchanged system and messages too', () => {
    const first = withPrefix('tools', block('user-1', 300, true));
    const changed = withPrefix('tools+herald', block('user-1', 300), block('user-2', 100, true));
    const [, two] = billSession([first, changed], ANTHROPIC_CACHE_RULE);
    assert.deepEqual([two.cacheReadTokens, two.cacheWriteTokens, two.freshTokens], [0, 4900, 0]);
    const same = withPrefix('tools', block('user-1', 300), block('user-2', 100, true));
    const [, unchanged] = billSession([first, same], ANTHROPIC_CACHE_RULE);
    assert.equal(unchanged.cacheReadTokens, 4800);
    assert.ok(two.cost > 10 * unchanged.cost, `${two.cost} vs ${unchanged.cost}`);
  });

  it('a change after the last breakpoint costs nothing cached: the prefix up to it is read', () => {
    const first = withPrefix('tools', block('user-1', 300, true), block('result', 900));
    const rewritten = withPrefix('tools', block('user-1', 300, true), block('result-rewritten', 100));
    const [, two] = billSession([first, rewritten], ANTHROPIC_CACHE_RULE);
    assert.deepEqual([two.cacheReadTokens, two.cacheWriteTokens, two.freshTokens], [4800, 0, 100]);
  });

  it('a change before the entry the breakpoint would find moves the read back to an earlier entry', () => {
    const first = withPrefix('tools', block('user-1', 300), block('result', 900, true));
    const rewritten = withPrefix('tools', block('user-1', 300), block('result-rewritten', 100), block('user-2', 50, true));
    const [, two] = billSession([first, rewritten], ANTHROPIC_CACHE_RULE);
    // The system breakpoint's entry (4500) is the longest one still matching.
    assert.deepEqual([two.cacheReadTokens, two.cacheWriteTokens, two.freshTokens], [4500, 450, 0]);
  });

  it('finds an entry 20 blocks before a breakpoint, not 21', () => {
    const history = Array.from({ length: 30 }, (_, index) => block(`m${index}`, 10));
    const firstBlocks = [block('tools', 2000, true), ...history];
    // Entry written at the first message block (index 1).
    firstBlocks[1] = block('m0', 10, true);
    const first = request(...firstBlocks);
    const reach = (breakpointAt: number): number => {
      const blocks = [block('tools', 2000), ...history.map((item, index) => (index + 1 === breakpointAt ? block(item.key, item.tokens, true) : item))];
      return billSession([first, request(...blocks)], ANTHROPIC_CACHE_RULE)[1].cacheReadTokens;
    };
    assert.equal(reach(21), 2010, 'an entry 20 blocks back is found');
    assert.equal(reach(22), 0, 'an entry 21 blocks back is missed (and the tools were not marked this time)');
  });

  it('a second breakpoint within reach recovers an entry one further back misses', () => {
    const history = Array.from({ length: 40 }, (_, index) => block(`m${index}`, 10));
    const first = request(block('tools', 2000), ...history.slice(0, 5).map((item, index) => (index === 4 ? block(item.key, item.tokens, true) : item)));
    const marks = (at: readonly number[]): BillingRequest => request(block('tools', 2000), ...history.map((item, index) => (at.includes(index) ? block(item.key, item.tokens, true) : item)));
    assert.equal(billSession([first, marks([39])], ANTHROPIC_CACHE_RULE)[1].cacheReadTokens, 0);
    assert.equal(billSession([first, marks([20, 39])], ANTHROPIC_CACHE_RULE)[1].cacheReadTokens, 2050);
  });

  it('caches nothing under the minimum cacheable length, and rejects a fifth breakpoint', () => {
    const small = request(block('tools', 600, true), block('user', 300, true));
    const [one, two] = billSession([small, small], ANTHROPIC_CACHE_RULE);
    assert.deepEqual([one.freshTokens, two.freshTokens, two.cacheReadTokens], [900, 900, 0]);
    const five = request(...Array.from({ length: 5 }, (_, index) => block(`b${index}`, 300, true)));
    assert.throws(() => new ProviderCache(ANTHROPIC_CACHE_RULE).record(five), /Herald: .*5 cache breakpoints/);
  });

  it('quote prices without writing; record writes', () => {
    const cache = new ProviderCache(ANTHROPIC_CACHE_RULE);
    const first = withPrefix('tools', block('user-1', 300, true));
    assert.equal(cache.quote(first).cacheWriteTokens, 4800);
    assert.equal(cache.quote(first).cacheReadTokens, 0, 'a quote leaves nothing in cache');
    cache.record(first);
    assert.equal(cache.quote(first).cacheReadTokens, 4800);
  });
});

describe('cacheBilling: OpenAI (longest earlier prefix, automatic)', () => {
  it('reads the longest prefix shared with any earlier request, in 128-token steps from 1024', () => {
    const a = request(block('system', 1000), block('tools', 500), block('u1', 400), block('r1', 2000));
    const b = request(block('system', 1000), block('tools', 500), block('u2', 100));
    const c = request(block('system', 1000), block('tools', 500), block('u1', 400), block('r1', 2000), block('u3', 30));
    const [one, two, three] = billSession([a, b, c], OPENAI_CACHE_RULE);
    assert.equal(one.cacheReadTokens, 0);
    assert.equal(two.cacheReadTokens, 1408, '1500 shared → 1024 + 3 × 128');
    // The previous request (b) shares only 1500 tokens; the one before shares 3900.
    assert.equal(three.cacheReadTokens, 3840, '3900 shared → 1024 + 22 × 128');
    assert.equal(three.freshTokens, 3930 - 3840);
    assert.equal(three.cacheWriteTokens, 0, 'no write premium');
    assert.equal(three.cost, 90 + 3840 * 0.1);
  });

  it('a changed first block reads nothing; nothing under 1024 shared tokens is read', () => {
    const a = request(block('system', 3000), block('u1', 100));
    const [, changed] = billSession([a, request(block('system-2', 3000), block('u1', 100))], OPENAI_CACHE_RULE);
    assert.equal(changed.cacheReadTokens, 0);
    const short = request(block('system', 1000), block('u1', 100));
    const [, shortTwo] = billSession([short, request(block('system', 1000), block('u2', 100))], OPENAI_CACHE_RULE);
    assert.equal(shortTwo.cacheReadTokens, 0);
  });

  it('ignores breakpoints, and the two rules bill one session differently', () => {
    const requests = [withPrefix('tools', block('u1', 300, true)), withPrefix('tools', block('u1', 300), block('u2', 300))];
    const openai = sumBills(billSession(requests, OPENAI_CACHE_RULE));
    const anthropic = sumBills(billSession(requests, ANTHROPIC_CACHE_RULE));
    // OpenAI reads 4800 → 4736 (1024 + 29 × 128) of the second; Anthropic has no breakpoint past the system prompt there.
    assert.equal(openai.cacheReadTokens, 4736);
    assert.equal(anthropic.cacheReadTokens, 4500);
    assert.equal(anthropic.freshTokens, 600);
  });
});
