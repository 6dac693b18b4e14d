import { strict as assert } from 'node:assert';
import { billingNote, billingOfVendor, exposedMultiplier, PREMIUM_MULTIPLIER_URL } from '../../../src/core/costs/billing';
import { DEFAULT_PRICES, mergePriceTable, priceFor, usageCost, withoutHeraldUsage } from '../../../src/core/costs/prices';
import { addUsage, anthropicUsage, openAIUsage, totalInputTokens } from '../../../src/core/costs/usage';

describe('provider usage figures', () => {
  it("reads OpenAI's usage: cached tokens are part of prompt_tokens and priced apart", () => {
    assert.deepEqual(openAIUsage({ prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280, prompt_tokens_details: { cached_tokens: 1024 } }), { inputTokens: 176, cacheReadTokens: 1024, cacheWriteTokens: 0, outputTokens: 80 });
    assert.deepEqual(openAIUsage({ prompt_tokens: 10, completion_tokens: 2 }), { inputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 2 });
    assert.equal(openAIUsage({ completion_tokens: 2 }), undefined, 'no prompt count: not a usage object');
    assert.equal(openAIUsage(null), undefined);
  });

  it("reads Anthropic's usage: cache reads and writes come beside input_tokens", () => {
    assert.deepEqual(anthropicUsage({ input_tokens: 12, cache_read_input_tokens: 9000, cache_creation_input_tokens: 300, output_tokens: 1 }), { inputTokens: 12, cacheReadTokens: 9000, cacheWriteTokens: 300, outputTokens: 1 });
    assert.deepEqual(anthropicUsage({ output_tokens: 55 }), { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 55 });
    assert.equal(anthropicUsage({ foo: 1 }), undefined);
  });

  it('adds usage over rounds', () => {
    const sum = addUsage({ inputTokens: 1, cacheReadTokens: 2, cacheWriteTokens: 3, outputTokens: 4 }, { inputTokens: 10, cacheReadTokens: 20, cacheWriteTokens: 30, outputTokens: 40 });
    assert.deepEqual(sum, { inputTokens: 11, cacheReadTokens: 22, cacheWriteTokens: 33, outputTokens: 44 });
    assert.equal(totalInputTokens(sum), 66);
  });
});

describe('price table', () => {
  it('finds the longest matching prefix, ignoring case and a vendor prefix', () => {
    assert.equal(priceFor('gpt-4.1-mini-2025-04-14', DEFAULT_PRICES)?.key, 'gpt-4.1-mini');
    assert.equal(priceFor('GPT-4.1', DEFAULT_PRICES)?.key, 'gpt-4.1');
    assert.equal(priceFor('openai/gpt-4o-mini', DEFAULT_PRICES)?.key, 'gpt-4o-mini');
    assert.equal(priceFor('claude-opus-4-1-20250805', DEFAULT_PRICES)?.key, 'claude-opus-4', 'Opus 4.1 keeps the old price');
    assert.equal(priceFor('claude-opus-4-5-20251101', DEFAULT_PRICES)?.key, 'claude-opus-4-5');
    assert.equal(priceFor('claude-sonnet-4-5-20250929', DEFAULT_PRICES)?.key, 'claude-sonnet-4');
    assert.equal(priceFor('llama3', DEFAULT_PRICES), undefined, 'an unknown model gets no money figure, not a guess');
  });

  it('prices usage by kind of token: Anthropic cache reads at a tenth, writes at 1.25×', () => {
    const sonnet = DEFAULT_PRICES['claude-sonnet-4']!;
    assert.ok(Math.abs(sonnet.cachedInput / sonnet.input - 0.1) < 1e-9);
    assert.equal(sonnet.cacheWrite / sonnet.input, 1.25);
    const usage = { inputTokens: 1_000_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 1_000_000, outputTokens: 1_000_000 };
    assert.ok(Math.abs(usageCost(usage, sonnet) - (3 + 0.3 + 3.75 + 15)) < 1e-9);
  });

  it('estimates the turn without Herald as the original sent once, in the mix the provider billed, however many rounds Herald sent', () => {
    const price = { input: 2, cachedInput: 0.5, cacheWrite: 0, output: 8 };
    // Two rounds (a retrieval): Herald counted 4,000 + 30,000 tokens sent; the provider counted 34,000, 3,000 of them cached.
    const usage = { inputTokens: 31_000, cacheReadTokens: 3_000, cacheWriteTokens: 0, outputTokens: 60 };
    const without = withoutHeraldUsage({ usage, tokensBefore: 24_000, tokensSent: 34_000, answerOutputTokens: 40 });
    assert.equal(without.inputTokens + without.cacheReadTokens, 24_000, 'the original once, not once per round');
    assert.equal(without.cacheReadTokens, Math.round((24_000 * 3_000) / 34_000));
    assert.equal(without.outputTokens, 40, 'the answer, not the retrieve call before it');
    assert.ok(usageCost(without, price) < usageCost(usage, price), 'this turn cost more with Herald, and the figures say so');
  });

  it("puts Herald's counts in the provider's units, and takes the cache model's split of the original when it has one", () => {
    // The provider counts 20% more than Herald's tokenizer (Claude against o200k).
    const usage = { inputTokens: 200, cacheReadTokens: 1_000, cacheWriteTokens: 0, outputTokens: 10 };
    const scaled = withoutHeraldUsage({ usage, tokensBefore: 2_000, tokensSent: 1_000 });
    assert.equal(scaled.inputTokens + scaled.cacheReadTokens + scaled.cacheWriteTokens, 2_400);
    const modelled = withoutHeraldUsage({ usage, tokensBefore: 2_000, tokensSent: 1_000, original: { freshTokens: 500, cacheReadTokens: 1_000, cacheWriteTokens: 500 } });
    assert.deepEqual(modelled, { inputTokens: 600, cacheReadTokens: 1_200, cacheWriteTokens: 600, outputTokens: 10 });
    assert.deepEqual(withoutHeraldUsage({ usage: { outputTokens: 5 }, tokensBefore: 100, tokensSent: 0 }), { inputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 5 }, 'no input reported: all fresh, unscaled');
  });

  it("lays the user's entries over the defaults and reports the invalid ones", () => {
    const { table, problems } = mergePriceTable({ 'gpt-4.1': { input: 1, cachedInput: 0.25, output: 4 }, 'my-model': { input: 0.1, cachedInput: 0.01, cacheWrite: 0, output: 0.2 }, broken: { input: -1 } });
    assert.deepEqual(table['gpt-4.1'], { input: 1, cachedInput: 0.25, cacheWrite: 0, output: 4 });
    assert.equal(priceFor('my-model-7b', table)?.key, 'my-model');
    assert.deepEqual(table['claude-sonnet-4'], DEFAULT_PRICES['claude-sonnet-4']);
    assert.equal(table.broken, undefined);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /herald\.prices\["broken"\]/);
    assert.equal(mergePriceTable('cheap').problems.length, 1);
  });
});

describe('billing', () => {
  it("bills Copilot's own models in premium requests and says so with GitHub's table", () => {
    assert.equal(billingOfVendor('copilot'), 'premium-requests');
    assert.equal(billingOfVendor('herald-e2e'), 'unknown');
    assert.match(billingNote('premium-requests'), /premium request/);
    assert.ok(billingNote('premium-requests').includes(PREMIUM_MULTIPLIER_URL));
    assert.match(billingNote('premium-requests', 3), /× 3/);
    assert.match(billingNote('tokens'), /usage figures/);
  });

  it('reads a multiplier only where the model object carries one (the stable API does not)', () => {
    assert.equal(exposedMultiplier({ id: 'gpt-4.1', vendor: 'copilot' }), undefined);
    assert.equal(exposedMultiplier({ multiplierNumeric: 0.33 }), 0.33);
  });
});
