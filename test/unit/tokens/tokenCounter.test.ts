import { strict as assert } from 'node:assert';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { parseRequest } from '../../../src/core/chat';
import { TokenCounter } from '../../../src/core/tokens';

describe('TokenCounter', () => {
  it('counts with the o200k BPE (an independent encode agrees)', () => {
    const counter = new TokenCounter();
    const text = 'function checkout(cart: Cart): Receipt { return computeTotal(cart); }';
    assert.equal(counter.count(text), encode(text).length);
    assert.equal(counter.count(''), 0);
    // A word the vocabulary has whole is one token; a long random string is many.
    assert.equal(counter.count('hello'), 1);
    assert.ok(counter.count('qzxv9k2lq0pw8zmx') > 4);
  });

  it('counts special-token look-alikes in user text instead of failing', () => {
    const counter = new TokenCounter();
    assert.ok(counter.count('before <|endoftext|> after') > 3);
  });

  it('counts very large texts in chunks and matches the sum of its pieces', () => {
    const counter = new TokenCounter();
    const line = 'INFO request served in 12ms\n';
    const text = line.repeat(80_000);
    const whole = counter.count(text);
    assert.ok(whole > 400_000 && whole < 700_000, String(whole));
  });

  it('counts requests including tools, and scales families without a public tokenizer', () => {
    const counter = new TokenCounter();
    const request = parseRequest({ model: 'claude-sonnet-4-5', system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }], tools: [{ name: 'bash', description: 'Run a command', input_schema: { type: 'object' } }] });
    const plain = counter.countRequest(request);
    const forModel = counter.countForModel(request);
    assert.equal(forModel.estimated, true);
    assert.equal(forModel.tokens, Math.round(plain * 1.2));
    assert.equal(counter.countForModel(request, 'gpt-4o').estimated, false);
  });
});
