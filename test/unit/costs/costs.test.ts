import { strict as assert } from 'node:assert';
import { billingNote, billingOfVendor, exposedMultiplier, PREMIUM_MULTIPLIER_URL } from '../../../src/core/costs/billing';
import { DEFAULT_PRICES, mergePriceTable, priceFor, unoptimizedCost, usageCost } from '../../../src/core/costs/prices';
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

  it("estimates the unoptimized turn at the provider's own average input price, once per round", () => {
    const price = { input: 2, cachedInput: 0.5, cacheWrite: 0, output: 8 };
    const usage = { inputTokens: 500_000, cacheReadTokens: 500_000, cacheWriteTokens: 0, outputTokens: 0 };
    const billed = usageCost(usage, price); // 1 + 0.25
    assert.equal(billed, 1.25);
    // Average input price 1.25 per million; 400k removed tokens in each of 2 rounds.
    assert.ok(Math.abs(unoptimizedCost(usage, price, 400_000, 2) - (1.25 + 0.8 * 1.25)) < 1e-9);
    assert.equal(unoptimizedCost(usage, price, 0, 3), billed, 'nothing removed, nothing added');
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
